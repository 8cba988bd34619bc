import t from 'tap';
import { bookingContract, DEFAULT_BOOKING, makeInMemoryBooking, parseWeeklyHours, type Garage } from './support.js';

// The same suite runs against the Postgres adapter: the fake and the real repository are proven to behave alike.
const GARAGE = 'g1';
const OTHER_GARAGE = 'g2';
const products: Record<string, string[]> = { [GARAGE]: ['p1', 'p2'], [OTHER_GARAGE]: ['p3'] };

const garageOf = (id: string): Garage => ({
  id,
  slug: id,
  name: id,
  currency: 'EUR',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  booking: { ...DEFAULT_BOOKING, weeklyHours: parseWeeklyHours('mon-fri 08:00-18:00') },
});

for (const c of bookingContract(async () => {
  const store = makeInMemoryBooking({
    productExists: (garageId, id) => products[garageId]?.includes(id) ?? false,
  });
  const garages = {
    findById: async (id: string) => (id in products ? garageOf(id) : null),
    listClosures: async () => [],
  };
  return {
    appointments: store.appointments,
    bookings: store.repositories.bookings,
    availability: store.availabilityOver(garages),
    uow: store.uow,
    garageId: GARAGE,
    integrationId: 'i1',
    otherIntegrationId: 'i2',
    otherGarageId: OTHER_GARAGE,
    otherGarageIntegrationId: 'i3',
    productIds: ['p1', 'p2'],
    foreignProductId: 'p3',
  };
})) {
  t.test(c.name, c.run);
}
