import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  APPOINTMENT_STATUSES,
  hasRoom,
  holdsPlace,
  isUuid,
  placesSpan,
  type Appointment,
  type AppointmentReader,
  type AvailabilityReader,
  type BookingWriter,
  type NewAppointment,
  type PlaceRequest,
  type UnitOfWork,
} from '../../index.js';
import type { PortContractCase } from './idempotency-store.contract.js';

/** What the booking contract needs: the ports over an empty appointments table, and rows they may reference. */
export interface BookingFixture {
  uow: UnitOfWork;
  /** Reads outside any transaction. */
  appointments: AppointmentReader;
  /** A booking's one write, outside any transaction. */
  bookings: BookingWriter;
  availability: AvailabilityReader;
  garageId: string;
  integrationId: string;
  /** Another integration of the same garage. */
  otherIntegrationId: string;
  otherGarageId: string;
  /** An integration of the other garage. */
  otherGarageIntegrationId: string;
  /** At least two products of `garageId`. */
  productIds: string[];
  /** A product of the other garage. */
  foreignProductId: string;
  /**
   * How many transactions wait right now for a lock (booking or row) that another transaction holds. Absent where
   * transactions cannot run side by side at all (PGlite's one connection): there, nothing can overlap a holder.
   */
  lockWaiters?: () => Promise<number>;
}

const at = (hhmm: string) => new Date(`2030-01-07T${hhmm}:00Z`);
/** The dates of the cases' appointments and locks, and the span of their UTC days. */
const DAYS = { from: '2030-01-06', to: '2030-01-08' };
const SPAN = { from: new Date('2030-01-06T00:00:00Z'), to: new Date('2030-01-09T00:00:00Z') };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once `count` other transactions wait for a lock, or as soon as `overlapping()` says one got in anyway (the
 * case's assertion then fails): a holder that waits here proves that its lock kept them out, whatever the timing.
 */
const othersWaiting = async (f: BookingFixture, count: number, overlapping: () => boolean): Promise<void> => {
  if (!f.lockWaiters) return;
  while (!overlapping() && (await f.lockWaiters()) < count) await new Promise((resolve) => setImmediate(resolve));
};

const newAppointment = (f: BookingFixture, over: Partial<NewAppointment> = {}): NewAppointment => ({
  garageId: f.garageId,
  integrationId: f.integrationId,
  startsAt: at('10:00'),
  endsAt: at('11:00'),
  durationMinutes: 60,
  customer: { name: 'Jeanne Martin', email: 'jeanne@example.com', phone: null },
  vehicle: { plate: 'AB-123-CD', make: 'Peugeot', model: '208', vin: null, mileageKm: 42000 },
  productIds: [],
  notes: 'Brakes squeak',
  externalRef: null,
  ...over,
});

/** One appointment, created in a transaction of its own (creation is only reachable inside one). */
const create = (f: BookingFixture, input: NewAppointment) => f.uow.run((tx) => tx.appointments.create(input));

const rejectsWith = (promise: Promise<unknown>, code: string) => assert.rejects(promise, (err: { code?: string }) => err.code === code);

const SLOT_MINUTES = 30;

/** A booking of `from`..`to` (on the grid of `SLOT_MINUTES`) under `capacity`, as `BookingWriter` is given one. */
const placeRequest = (f: BookingFixture, from: string, to: string, capacity: number, over: Partial<Appointment> = {}): PlaceRequest => {
  const startsAt = at(from);
  const endsAt = at(to);
  const slots: Date[] = [];
  for (let slot = startsAt.getTime(); slot < endsAt.getTime(); slot += SLOT_MINUTES * 60_000) slots.push(new Date(slot));
  const stamped = new Date('2029-12-01T08:00:00.123Z');
  const appointment: Appointment = {
    ...newAppointment(f, { startsAt, endsAt, durationMinutes: (endsAt.getTime() - startsAt.getTime()) / 60_000 }),
    id: randomUUID(),
    status: 'booked',
    createdAt: stamped,
    updatedAt: stamped,
    cancelledAt: null,
    cancellationReason: null,
    ...over,
  };
  return {
    lock: { garageId: appointment.garageId, localDate: '2030-01-07' },
    capacity,
    slotMinutes: SLOT_MINUTES,
    slots,
    appointment,
    event: { garageId: appointment.garageId, type: 'appointment.created', data: { id: appointment.id } },
  };
};

/** What `bookIfRoom` answers inside a transaction that is then rolled back, so that the store is left as it was. */
const answerWithoutWriting = async (f: BookingFixture, request: PlaceRequest): Promise<boolean> => {
  const answer = { booked: false };
  const rollback = new Error('rolled back on purpose');
  await assert.rejects(
    f.uow.run(async (tx) => {
      answer.booked = await tx.bookings.bookIfRoom(request);
      throw rollback;
    }),
    (err) => err === rollback,
  );
  return answer.booked;
};

/** The same pseudo-random sequence on every run and every backend. */
const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

/**
 * The contract of `AppointmentRepository`, `BookingLocks`, `BookingWriter` and `UnitOfWork` (see their ports). The domain tests run it against the
 * in-memory fake; the Postgres adapter's tests run it against the real tables, one fresh fixture per case.
 */
export const bookingContract = (setup: () => Promise<BookingFixture>): PortContractCase[] => [
  {
    name: 'create returns the appointment with a new UUID and a creation time, and stores every field',
    run: async () => {
      const f = await setup();
      const input = newAppointment(f, { productIds: f.productIds.slice(0, 2), externalRef: 'order-1' });
      const created = await create(f, input);
      assert.ok(isUuid(created.id));
      assert.ok(created.createdAt instanceof Date && !Number.isNaN(created.createdAt.getTime()));
      assert.equal(created.updatedAt.getTime(), created.createdAt.getTime(), 'a new appointment was last updated when created');
      const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...stored } = created;
      assert.deepEqual(
        { ...stored, productIds: [...stored.productIds].sort() },
        { ...input, productIds: [...input.productIds].sort(), status: 'booked', cancelledAt: null, cancellationReason: null },
      );
    },
  },
  {
    name: 'listOverlapping returns the intervals of the garage that overlap [from, to), touching ones excluded',
    run: async () => {
      const f = await setup();
      await create(f, newAppointment(f));
      await create(f, 
        newAppointment(f, { garageId: f.otherGarageId, integrationId: f.otherGarageIntegrationId }),
      );
      const list = (from: string, to: string) => f.appointments.listOverlapping(f.garageId, at(from), at(to));
      assert.deepEqual(await list('09:00', '10:00'), []);
      assert.deepEqual(await list('11:00', '12:00'), []);
      assert.deepEqual(await list('10:59', '11:00'), [{ startsAt: at('10:00'), endsAt: at('11:00') }]);
      assert.deepEqual(await list('09:00', '10:01'), [{ startsAt: at('10:00'), endsAt: at('11:00') }]);
      assert.deepEqual(await list('08:00', '18:00'), [{ startsAt: at('10:00'), endsAt: at('11:00') }]);
    },
  },
  {
    name: 'listOverlapping counts appointments of every integration of the garage',
    run: async () => {
      const f = await setup();
      await create(f, newAppointment(f));
      await create(f, newAppointment(f, { integrationId: f.otherIntegrationId }));
      assert.equal((await f.appointments.listOverlapping(f.garageId, at('10:30'), at('11:00'))).length, 2);
    },
  },
  {
    name: 'an externalRef is unique per integration: DUPLICATE for the same one, fine for another or when null',
    run: async () => {
      const f = await setup();
      await create(f, newAppointment(f, { externalRef: 'order-1' }));
      await rejectsWith(create(f, newAppointment(f, { externalRef: 'order-1' })), 'DUPLICATE');
      await create(f, newAppointment(f, { externalRef: 'order-1', integrationId: f.otherIntegrationId }));
      await create(f, newAppointment(f));
      await create(f, newAppointment(f));
      assert.equal((await f.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00'))).length, 4);
    },
  },
  {
    name: "a product of another garage is an INVALID_REFERENCE and nothing is stored",
    run: async () => {
      const f = await setup();
      const productIds = [f.productIds[0] as string, f.foreignProductId];
      await rejectsWith(create(f, newAppointment(f, { productIds })), 'INVALID_REFERENCE');
      assert.deepEqual(await f.appointments.listOverlapping(f.garageId, at('00:00'), at('23:00')), []);
    },
  },
  {
    name: 'a transaction sees its own writes and publishes them when its work resolves',
    run: async () => {
      const f = await setup();
      const key = { garageId: f.garageId, localDate: '2030-01-07' };
      const seen = await f.uow.run(async (tx) => {
        await tx.bookingLocks.acquire(key);
        await tx.appointments.create(newAppointment(f));
        return (await tx.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00'))).length;
      });
      assert.equal(seen, 1);
      assert.equal((await f.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00'))).length, 1);
    },
  },
  {
    name: 'a transaction whose work rejects writes nothing and rejects with the same error',
    run: async () => {
      const f = await setup();
      const boom = new Error('boom');
      await assert.rejects(
        f.uow.run(async (tx) => {
          await tx.bookingLocks.acquire({ garageId: f.garageId, localDate: '2030-01-07' });
          await tx.appointments.create(newAppointment(f));
          throw boom;
        }),
        (err) => err === boom,
      );
      assert.deepEqual(await f.appointments.listOverlapping(f.garageId, at('00:00'), at('23:00')), []);
    },
  },
  {
    name: 'a DUPLICATE inside a transaction rolls back its earlier writes',
    run: async () => {
      const f = await setup();
      await create(f, newAppointment(f, { externalRef: 'order-1', startsAt: at('08:00'), endsAt: at('09:00') }));
      await rejectsWith(
        f.uow.run(async (tx) => {
          await tx.appointments.create(newAppointment(f));
          await tx.appointments.create(newAppointment(f, { externalRef: 'order-1' }));
        }),
        'DUPLICATE',
      );
      assert.deepEqual(await f.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00')), []);
    },
  },
  {
    name: 'transactions holding the same booking lock execute one at a time and each sees the commits of the ones before',
    run: async () => {
      const f = await setup();
      const key = { garageId: f.garageId, localDate: '2030-01-07' };
      let active = 0;
      let maxActive = 0;
      let entered = 0;
      const seen = await Promise.all(
        Array.from({ length: 6 }, () =>
          f.uow.run(async (tx) => {
            await tx.bookingLocks.acquire(key);
            active += 1;
            entered += 1;
            maxActive = Math.max(maxActive, active);
            const before = (await tx.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00'))).length;
            await othersWaiting(f, 6 - entered, () => maxActive > 1);
            await tx.appointments.create(newAppointment(f));
            active -= 1;
            return before;
          }),
        ),
      );
      assert.equal(maxActive, 1);
      assert.deepEqual([...seen].sort(), [0, 1, 2, 3, 4, 5]);
    },
  },
  {
    name: 'acquireAndListOverlapping holds the lock like acquire and reads what listOverlapping reads, after the lock was granted',
    run: async () => {
      const f = await setup();
      const key = { garageId: f.garageId, localDate: '2030-01-07' };
      const other = await create(f, newAppointment(f, { startsAt: at('09:30'), endsAt: at('10:30') }));
      await create(f, newAppointment(f, { startsAt: at('11:00'), endsAt: at('12:00') }));
      let active = 0;
      let maxActive = 0;
      let entered = 0;
      const seen = await Promise.all(
        Array.from({ length: 6 }, () =>
          f.uow.run(async (tx) => {
            const places = await tx.bookingLocks.acquireAndListOverlapping(key, at('10:00'), at('11:00'));
            active += 1;
            entered += 1;
            maxActive = Math.max(maxActive, active);
            await othersWaiting(f, 6 - entered, () => maxActive > 1);
            await tx.appointments.create(newAppointment(f));
            active -= 1;
            return places.length;
          }),
        ),
      );
      assert.equal(maxActive, 1);
      // The 09:30 place overlaps, the 11:00 one only touches; each transaction sees the commits of those before it.
      assert.deepEqual([...seen].sort(), [1, 2, 3, 4, 5, 6]);
      const without = await f.uow.run((tx) => tx.bookingLocks.acquireAndListOverlapping(key, at('09:00'), at('10:00'), other.id));
      assert.deepEqual(without, [], 'excludeId');
      const intervals = await f.uow.run((tx) => tx.bookingLocks.acquireAndListOverlapping(key, at('09:00'), at('10:00')));
      assert.deepEqual(intervals, [{ startsAt: at('09:30'), endsAt: at('10:30') }]);
    },
  },
  {
    name: 'work given a transaction commits with it: a rollback after its writes undoes them',
    run: async () => {
      const f = await setup();
      const boom = new Error('boom');
      await assert.rejects(
        f.uow.run(async (tx) => {
          await tx.appointments.create(newAppointment(f));
          throw boom;
        }),
        (err) => err === boom,
      );
      assert.deepEqual(await f.appointments.listOverlapping(f.garageId, at('00:00'), at('23:00')), []);
    },
  },
  {
    name: 'findById finds an appointment of the garage only; list pages by (updatedAt, id) with its filters',
    run: async () => {
      const f = await setup();
      const a = await create(f, newAppointment(f, { externalRef: 'ref-a' }));
      const b = await create(f, newAppointment(f, { startsAt: at('14:00'), endsAt: at('15:00'), integrationId: f.otherIntegrationId, externalRef: 'ref-a' }));
      assert.equal((await f.appointments.findById(f.garageId, a.id))?.id, a.id);
      assert.equal(await f.appointments.findById(f.otherGarageId, a.id), null);
      const query = { garageId: f.garageId, limit: 10, after: null, updatedSince: null, startsFrom: null, startsBefore: null, status: null, externalRef: null };
      const all = await f.appointments.list(query);
      assert.deepEqual(all.map((x) => x.id).sort(), [a.id, b.id].sort());
      const first = all[0] as (typeof all)[number];
      const rest = await f.appointments.list({ ...query, after: { sortValue: first.updatedAt, id: first.id } });
      assert.deepEqual(rest.map((x) => x.id), [all[1]?.id]);
      assert.deepEqual((await f.appointments.list({ ...query, startsFrom: at('12:00') })).map((x) => x.id), [b.id]);
      assert.deepEqual((await f.appointments.list({ ...query, startsBefore: at('12:00') })).map((x) => x.id), [a.id]);
      assert.deepEqual((await f.appointments.list({ ...query, externalRef: { integrationId: f.integrationId, value: 'ref-a' } })).map((x) => x.id), [a.id]);
      assert.deepEqual(await f.appointments.list({ ...query, status: 'cancelled' }), []);
      assert.deepEqual(await f.appointments.list({ ...query, garageId: f.otherGarageId }), []);
    },
  },
  {
    name: 'update changes the fields given and moves updatedAt; a cancelled appointment holds no place',
    run: async () => {
      const f = await setup();
      const a = await create(f, newAppointment(f));
      // updatedAt comes from the store's own clock (the database's, to the millisecond): change in a later one.
      await sleep(5);
      const moved = await f.uow.run(async (tx) => {
        const locked = await tx.appointments.findForUpdate(f.garageId, a.id);
        assert.equal(locked?.id, a.id);
        return tx.appointments.update(a.id, { startsAt: at('11:00'), endsAt: at('12:00') });
      });
      assert.deepEqual([moved.startsAt, moved.endsAt, moved.status], [at('11:00'), at('12:00'), 'booked']);
      assert.ok(moved.updatedAt.getTime() > a.updatedAt.getTime());
      assert.deepEqual(await f.appointments.listOverlapping(f.garageId, at('11:00'), at('12:00'), a.id), [], 'excludeId');
      const cancelledAt = new Date('2030-01-06T09:00:00Z');
      const cancelled = await f.uow.run((tx) => tx.appointments.update(a.id, { status: 'cancelled', cancelledAt, cancellationReason: 'ill' }));
      assert.deepEqual([cancelled.status, cancelled.cancelledAt, cancelled.cancellationReason], ['cancelled', cancelledAt, 'ill']);
      assert.deepEqual(await f.appointments.listOverlapping(f.garageId, at('00:00'), at('23:00')), []);
      assert.equal((await f.appointments.findById(f.garageId, a.id))?.status, 'cancelled', 'still readable');
    },
  },
  {
    name: 'the places held are the appointments of the statuses that hold one (PLACE_HOLDING_STATUSES), for every reader',
    run: async () => {
      const f = await setup();
      for (const status of APPOINTMENT_STATUSES) {
        const a = await create(f, newAppointment(f));
        await f.uow.run((tx) => tx.appointments.update(a.id, { status }));
        const expected = holdsPlace({ status }) ? 1 : 0;
        assert.equal((await f.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00'))).length, expected, `listOverlapping, ${status}`);
        const under = await f.uow.run((tx) =>
          tx.bookingLocks.acquireAndListOverlapping({ garageId: f.garageId, localDate: '2030-01-07' }, at('10:00'), at('11:00')),
        );
        assert.equal(under.length, expected, `acquireAndListOverlapping, ${status}`);
        assert.equal((await f.availability.readPlaces(f.garageId, DAYS.from, DAYS.to, SPAN)).places.length, expected, `readPlaces, ${status}`);
        await f.uow.run((tx) => tx.appointments.update(a.id, { status: 'cancelled' }));
      }
    },
  },
  {
    name: "a committed transaction that took a date's booking lock moves that date's version up, once; a rollback moves nothing",
    run: async () => {
      const f = await setup();
      const monday = { garageId: f.garageId, localDate: '2030-01-07' };
      const versions = async (garageId = f.garageId) => Object.fromEntries((await f.availability.readPlaces(garageId, DAYS.from, DAYS.to, SPAN)).versions);
      assert.deepEqual(await versions(), {}, 'a date never locked is at version 0: absent');
      await f.uow.run(async (tx) => {
        await tx.bookingLocks.acquire(monday);
        await tx.appointments.create(newAppointment(f));
      });
      assert.deepEqual(await versions(), { '2030-01-07': 1 });
      await f.uow.run((tx) => tx.bookingLocks.acquireAndListOverlapping(monday, at('10:00'), at('11:00')));
      assert.deepEqual(await versions(), { '2030-01-07': 2 }, 'acquireAndListOverlapping counts as acquire');
      await assert.rejects(
        f.uow.run(async (tx) => {
          await tx.bookingLocks.acquire(monday);
          await tx.bookingLocks.acquire({ ...monday, localDate: '2030-01-08' });
          throw new Error('boom');
        }),
      );
      assert.deepEqual(await versions(), { '2030-01-07': 2 }, 'rolled back');
      await f.uow.run(async (tx) => {
        await tx.bookingLocks.acquire({ ...monday, localDate: '2030-01-06' });
        await tx.bookingLocks.acquire({ ...monday, localDate: '2030-01-08' });
      });
      assert.deepEqual(await versions(), { '2030-01-06': 1, '2030-01-07': 2, '2030-01-08': 1 });
      assert.deepEqual(Object.fromEntries((await f.availability.readPlaces(f.garageId, '2030-01-07', '2030-01-07', SPAN)).versions), { '2030-01-07': 2 }, 'only the dates asked for');
      assert.deepEqual(await versions(f.otherGarageId), {}, "another garage's dates keep theirs");
      const [calendar, later, bare, unknown] = await f.availability.findCalendars([
        { garageId: f.garageId, dates: DAYS },
        { garageId: f.garageId, dates: { from: '2030-01-08', to: '2030-01-09' } },
        { garageId: f.garageId, dates: null },
        { garageId: f.otherGarageId, dates: DAYS },
      ]);
      assert.equal(calendar?.garage.id, f.garageId);
      assert.deepEqual(Object.fromEntries(calendar?.versions ?? []), { '2030-01-06': 1, '2030-01-07': 2, '2030-01-08': 1 }, 'findCalendars reads the same versions');
      assert.deepEqual(Object.fromEntries(later?.versions ?? []), { '2030-01-08': 1 }, 'each query its own dates, in order');
      assert.equal(bare?.versions.size, 0, 'without dates, the garage alone');
      assert.deepEqual([unknown?.garage.id, unknown?.versions.size], [f.otherGarageId, 0]);
      assert.deepEqual(await f.availability.findCalendars([]), []);
    },
  },
  {
    name: 'readPlaces returns what listOverlapping returns over the span, with the versions',
    run: async () => {
      const f = await setup();
      await create(f, newAppointment(f));
      await create(f, newAppointment(f, { startsAt: at('12:00'), endsAt: at('13:00') }));
      const cancelled = await create(f, newAppointment(f, { startsAt: at('14:00'), endsAt: at('15:00') }));
      await f.uow.run((tx) => tx.appointments.update(cancelled.id, { status: 'cancelled' }));
      await create(f, newAppointment(f, { garageId: f.otherGarageId, integrationId: f.otherGarageIntegrationId }));
      const byStart = (a: { startsAt: Date }, b: { startsAt: Date }) => a.startsAt.getTime() - b.startsAt.getTime();
      for (const [from, to] of [['00:00', '23:00'], ['10:30', '12:00'], ['11:00', '12:00']] as const) {
        const read = await f.availability.readPlaces(f.garageId, DAYS.from, DAYS.to, { from: at(from), to: at(to) });
        assert.deepEqual([...read.places].sort(byStart), [...(await f.appointments.listOverlapping(f.garageId, at(from), at(to)))].sort(byStart), `${from}–${to}`);
      }
      assert.equal((await f.availability.readPlaces(f.garageId, DAYS.from, DAYS.to, { from: at('00:00'), to: at('23:00') })).places.length, 2);
    },
  },
  {
    name: 'findForUpdate serialises the transactions that change one appointment',
    run: async () => {
      const f = await setup();
      const a = await create(f, newAppointment(f));
      const order: string[] = [];
      // The second transaction starts once the first holds the row, however long the first took to get there; the
      // first lets go once the second waits for the row (or got in anyway, which the order then shows).
      let firstHolds = () => {};
      const held = new Promise<void>((resolve) => (firstHolds = resolve));
      const change = (name: string, holding: () => Promise<void>) =>
        f.uow.run(async (tx) => {
          await tx.appointments.findForUpdate(f.garageId, a.id);
          order.push(`${name} in`);
          await holding();
          order.push(`${name} out`);
        });
      await Promise.all([
        change('first', async () => {
          firstHolds();
          await othersWaiting(f, 1, () => order.includes('second in'));
        }),
        held.then(() => change('second', async () => {})),
      ]);
      assert.deepEqual(order, ['first in', 'first out', 'second in', 'second out']);
    },
  },
  {
    name: 'bookIfRoom writes the appointment as given when every slot has room, and answers false writing nothing when one is full',
    run: async () => {
      const f = await setup();
      await create(f, newAppointment(f, { startsAt: at('10:30'), endsAt: at('11:00'), durationMinutes: 30 }));
      const first = placeRequest(f, '10:00', '11:00', 2, { productIds: f.productIds.slice(0, 2), externalRef: 'order-1' });
      assert.equal(await f.bookings.bookIfRoom(first), true);
      const stored = await f.appointments.findById(f.garageId, first.appointment.id);
      assert.deepEqual(
        stored && { ...stored, productIds: [...stored.productIds].sort() },
        { ...first.appointment, productIds: [...first.appointment.productIds].sort() },
      );
      // 10:30 now holds two places: a booking over it is refused, one beside it is not.
      assert.equal(await f.bookings.bookIfRoom(placeRequest(f, '10:30', '11:30', 2)), false);
      assert.equal((await f.appointments.listOverlapping(f.garageId, at('00:00'), at('23:00'))).length, 2, 'nothing written');
      assert.equal(await f.bookings.bookIfRoom(placeRequest(f, '11:00', '11:30', 1)), true);
    },
  },
  {
    name: 'bookIfRoom answers what the capacity rule (hasRoom) answers over the places listOverlapping reads',
    run: async () => {
      const f = await setup();
      const random = seeded(7);
      const time = (slot: number) => {
        const minutes = 8 * 60 + slot * SLOT_MINUTES;
        return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      };
      for (let i = 0; i < 24; i += 1) {
        const start = Math.floor(random() * 16);
        const length = 1 + Math.floor(random() * 4);
        await create(f, newAppointment(f, { startsAt: at(time(start)), endsAt: at(time(start + length)), durationMinutes: length * SLOT_MINUTES }));
      }
      const answers = { booked: 0, refused: 0 };
      for (let i = 0; i < 20; i += 1) {
        const start = Math.floor(random() * 18);
        const end = start + 1 + Math.floor(random() * 4);
        // Every capacity from full to free, so that each interval is asked at the capacity where the answer turns.
        for (let capacity = 1; capacity <= 8; capacity += 1) {
          const request = placeRequest(f, time(start), time(end), capacity);
          const { from, to } = placesSpan(request.appointment.startsAt, request.slots, SLOT_MINUTES);
          const held = await f.appointments.listOverlapping(f.garageId, from, to);
          const expected = hasRoom(request, request.slots, held);
          assert.equal(await answerWithoutWriting(f, request), expected, `${time(start)}–${time(end)} under capacity ${capacity}`);
          answers[expected ? 'booked' : 'refused'] += 1;
        }
      }
      assert.ok(answers.booked > 20 && answers.refused > 20, `both answers are tried: ${JSON.stringify(answers)}`);
    },
  },
  {
    name: 'bookIfRoom for the last place, several at once: exactly one books',
    run: async () => {
      const f = await setup();
      await create(f, newAppointment(f));
      const answers = await Promise.all(Array.from({ length: 4 }, () => f.bookings.bookIfRoom(placeRequest(f, '10:00', '11:00', 2))));
      assert.deepEqual(answers.filter(Boolean).length, 1);
      assert.equal((await f.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00'))).length, 2);
    },
  },
  {
    name: 'bookIfRoom refuses a reused externalRef (DUPLICATE) and a product of another garage (INVALID_REFERENCE), writing nothing',
    run: async () => {
      const f = await setup();
      await create(f, newAppointment(f, { externalRef: 'order-1' }));
      await rejectsWith(f.bookings.bookIfRoom(placeRequest(f, '14:00', '15:00', 8, { externalRef: 'order-1' })), 'DUPLICATE');
      const foreign = { productIds: [f.productIds[0] as string, f.foreignProductId] };
      await rejectsWith(f.bookings.bookIfRoom(placeRequest(f, '14:00', '15:00', 8, foreign)), 'INVALID_REFERENCE');
      assert.equal((await f.appointments.listOverlapping(f.garageId, at('00:00'), at('23:00'))).length, 1);
    },
  },
  {
    name: "a booking moves its day's version, as a transaction that took the day's lock does",
    run: async () => {
      const f = await setup();
      const version = async () => (await f.availability.readPlaces(f.garageId, DAYS.from, DAYS.to, SPAN)).versions.get('2030-01-07') ?? 0;
      const before = await version();
      assert.equal(await f.bookings.bookIfRoom(placeRequest(f, '10:00', '11:00', 1)), true);
      assert.ok((await version()) > before);
    },
  },
];
