import {
  cachedAvailableDays,
  DEFAULT_BOOKING,
  makeAvailableDays,
  makeLocalTime,
  makeBookAppointment,
  makeCancelAppointment,
  makeListAvailability,
  makeRescheduleAppointment,
  makeSetAppointmentStatus,
  parseWeeklyHours,
  type AvailabilityReader,
  type BookAppointmentCommand,
  type BookingSettings,
  type Clock,
  type Closure,
  type Garage,
  type GarageRepository,
  type Outbox,
  type ProductReader,
} from '../../index.js';
import { testClock } from '../clock.js';
import { makeInMemoryBooking } from './in-memory-booking.js';

export const GARAGE_ID = '11111111-1111-4111-8111-111111111111';
export const INTEGRATION_ID = '22222222-2222-4222-8222-222222222222';
export const OTHER_INTEGRATION_ID = '33333333-3333-4333-8333-333333333333';
export const PRODUCT_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
export const PRODUCT_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
export const UNKNOWN_PRODUCT = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

export interface WorldOptions {
  /** Default: Monday 2026-11-30 09:00 in Paris. */
  now?: string;
  /** Opening hours in the CLI syntax; default the demo garage's. */
  hours?: string;
  booking?: Partial<Omit<BookingSettings, 'weeklyHours'>>;
  closures?: { from: string; to: string }[];
  withoutLock?: boolean;
  /** Replaces the recording outbox (to make writing the event fail). */
  outbox?: Outbox;
}

/** Enough for every day the tests ask for: eviction is not what they look at. */
const TEST_CACHE_BYTES = 16 * 1024 * 1024;

/** Fakes of the garage and product repositories: only what the booking use-cases read. `reads` names each read. */
const fakeGarages = (garage: Garage, closures: Closure[], reads: string[], clock: Clock): Pick<GarageRepository, 'findById' | 'listClosures' | 'findWithClosures'> => {
  const closuresOf = (garageId: string, from: string, to: string) =>
    closures.filter((c) => c.garageId === garageId && c.from <= to && c.to >= from);
  return {
    findById: async (id) => {
      reads.push('findById');
      return id === garage.id ? structuredClone(garage) : null;
    },
    listClosures: async (garageId, from, to) => {
      reads.push('listClosures');
      return closuresOf(garageId, from, to);
    },
    findWithClosures: async (id, from, to) => {
      reads.push('findWithClosures');
      return id === garage.id ? { garage: structuredClone(garage), closures: closuresOf(id, from, to), readAt: clock.now() } : null;
    },
  };
};

const fakeProducts = (known: string[]): Pick<ProductReader, 'findExistingIds'> => ({
  findExistingIds: async (garageId, ids) => (garageId === GARAGE_ID ? ids.filter((id) => known.includes(id)) : []),
});

/** One garage with its booking use-cases over in-memory fakes. */
export const bookingWorld = (options: WorldOptions = {}) => {
  const clock = testClock(options.now ?? '2026-11-30T08:00:00Z');
  const garage: Garage = {
    id: GARAGE_ID,
    slug: 'test',
    name: 'Test garage',
    currency: 'EUR',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    booking: {
      ...DEFAULT_BOOKING,
      weeklyHours: parseWeeklyHours(options.hours ?? 'mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00'),
      ...options.booking,
    },
  };
  const closures = (options.closures ?? []).map((c, i) => ({ id: `closure-${i}`, garageId: GARAGE_ID, reason: null, ...c }));
  const products = [PRODUCT_A, PRODUCT_B];
  const garageReads: string[] = [];
  const garages = fakeGarages(garage, closures, garageReads, clock);
  const store = makeInMemoryBooking({
    clock,
    productExists: (_garageId, id) => products.includes(id),
    withoutLock: options.withoutLock ?? false,
    others: { garages, products: fakeProducts(products), ...(options.outbox ? { outbox: options.outbox } : {}) },
  });
  // One per world, as a composition root makes one per process.
  const localTime = makeLocalTime();
  const bookUseCase = makeBookAppointment({ repos: store.repositories, clock, localTime });
  const book = (cmd: Partial<BookAppointmentCommand> & { startsAt: string }) =>
    bookUseCase({
      principal: { integrationId: INTEGRATION_ID, garageId: GARAGE_ID },
      customer: { name: 'Jeanne Martin', email: 'jeanne@example.com' },
      ...cmd,
    });
  const committed = store.availabilityOver(garages);
  /** The dates of every read of places availability made, `from..to`: what it computed. */
  const placeReads: string[] = [];
  const reader: AvailabilityReader = {
    findCalendars: (queries) => committed.findCalendars(queries),
    readPlaces: (garageId, from, to, span) => {
      placeReads.push(`${from}..${to}`);
      return committed.readPlaces(garageId, from, to, span);
    },
  };
  const fresh = makeAvailableDays({ availability: reader, localTime });
  // Availability as the API wires it, with its per-day cache; `listFresh` computes every day again, for comparison.
  const availability = makeListAvailability({ availability: reader, days: cachedAvailableDays(fresh, { maxBytes: TEST_CACHE_BYTES }), clock, localTime });
  const uncached = makeListAvailability({ availability: reader, days: fresh, clock, localTime });
  const query = (from: string, to: string, durationMinutes?: number) => ({
    garageId: GARAGE_ID,
    from,
    to,
    ...(durationMinutes === undefined ? {} : { durationMinutes }),
  });
  const list = (from: string, to = from, durationMinutes?: number) => availability(query(from, to, durationMinutes));
  const listFresh = (from: string, to = from, durationMinutes?: number) => uncached(query(from, to, durationMinutes));
  const cancel = makeCancelAppointment({ uow: store.uow, clock, localTime });
  const reschedule = makeRescheduleAppointment({ uow: store.uow, clock, localTime });
  const setStatus = makeSetAppointmentStatus({ uow: store.uow, clock, localTime });
  return {
    clock,
    garage,
    garageReads,
    closures,
    placeReads,
    store,
    book,
    list,
    listFresh,
    availability,
    cancel: (appointmentId: string) => cancel({ garageId: GARAGE_ID, appointmentId }),
    reschedule: (appointmentId: string, startsAt: string, durationMinutes?: number) =>
      reschedule({ garageId: GARAGE_ID, appointmentId, startsAt, ...(durationMinutes === undefined ? {} : { durationMinutes }) }),
    setStatus: (appointmentId: string, status: string) => setStatus({ appointmentId, status }),
  };
};

/** The code of a rejected promise's error, or `'OK'` when it resolved: compact assertions over many outcomes. */
export const outcome = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'OK';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
};
