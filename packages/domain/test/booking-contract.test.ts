import t from 'tap';
import { bookingContract, makeInMemoryBooking } from './support.js';

// The same suite runs against the Postgres adapter: the fake and the real repository are proven to behave alike.
const GARAGE = 'g1';
const OTHER_GARAGE = 'g2';
const products: Record<string, string[]> = { [GARAGE]: ['p1', 'p2'], [OTHER_GARAGE]: ['p3'] };

for (const c of bookingContract(async () => {
  const { appointments, uow } = makeInMemoryBooking({
    productExists: (garageId, id) => products[garageId]?.includes(id) ?? false,
  });
  return {
    appointments,
    uow,
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
