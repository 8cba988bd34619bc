import assert from 'node:assert/strict';
import type { AppointmentRepository, BookingTx, NewAppointment } from '@garage/domain';
import type { PortContractCase } from './idempotency-store.contract.js';

/** What the booking contract needs: the ports over an empty appointments table, and rows they may reference. */
export interface BookingFixture {
  appointments: AppointmentRepository;
  bookingTx: BookingTx;
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
}

const at = (hhmm: string) => new Date(`2030-01-07T${hhmm}:00Z`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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

const rejectsWith = (promise: Promise<unknown>, code: string) => assert.rejects(promise, (err: { code?: string }) => err.code === code);

/**
 * The contract of `AppointmentRepository` and `BookingTx` (see their ports). The domain tests run it against the
 * in-memory fake; the Postgres adapter's tests run it against the real tables, one fresh fixture per case.
 */
export const bookingContract = (setup: () => Promise<BookingFixture>): PortContractCase[] => [
  {
    name: 'create returns the appointment with a new UUID and a creation time, and stores every field',
    run: async () => {
      const f = await setup();
      const input = newAppointment(f, { productIds: f.productIds.slice(0, 2), externalRef: 'order-1' });
      const created = await f.appointments.create(input);
      assert.match(created.id, UUID);
      assert.ok(created.createdAt instanceof Date && !Number.isNaN(created.createdAt.getTime()));
      const { id: _id, createdAt: _createdAt, ...stored } = created;
      assert.deepEqual({ ...stored, productIds: [...stored.productIds].sort() }, { ...input, productIds: [...input.productIds].sort() });
    },
  },
  {
    name: 'listOverlapping returns the intervals of the garage that overlap [from, to), touching ones excluded',
    run: async () => {
      const f = await setup();
      await f.appointments.create(newAppointment(f));
      await f.appointments.create(
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
      await f.appointments.create(newAppointment(f));
      await f.appointments.create(newAppointment(f, { integrationId: f.otherIntegrationId }));
      assert.equal((await f.appointments.listOverlapping(f.garageId, at('10:30'), at('11:00'))).length, 2);
    },
  },
  {
    name: 'an externalRef is unique per integration: DUPLICATE for the same one, fine for another or when null',
    run: async () => {
      const f = await setup();
      await f.appointments.create(newAppointment(f, { externalRef: 'order-1' }));
      await rejectsWith(f.appointments.create(newAppointment(f, { externalRef: 'order-1' })), 'DUPLICATE');
      await f.appointments.create(newAppointment(f, { externalRef: 'order-1', integrationId: f.otherIntegrationId }));
      await f.appointments.create(newAppointment(f));
      await f.appointments.create(newAppointment(f));
      assert.equal((await f.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00'))).length, 4);
    },
  },
  {
    name: "a product of another garage is an INVALID_REFERENCE and nothing is stored",
    run: async () => {
      const f = await setup();
      const productIds = [f.productIds[0] as string, f.foreignProductId];
      await rejectsWith(f.appointments.create(newAppointment(f, { productIds })), 'INVALID_REFERENCE');
      assert.deepEqual(await f.appointments.listOverlapping(f.garageId, at('00:00'), at('23:00')), []);
    },
  },
  {
    name: 'a transaction sees its own writes and publishes them when its work resolves',
    run: async () => {
      const f = await setup();
      const key = { garageId: f.garageId, localDate: '2030-01-07' };
      const seen = await f.bookingTx.run(key, async (tx) => {
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
        f.bookingTx.run({ garageId: f.garageId, localDate: '2030-01-07' }, async (tx) => {
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
      await f.appointments.create(newAppointment(f, { externalRef: 'order-1', startsAt: at('08:00'), endsAt: at('09:00') }));
      await rejectsWith(
        f.bookingTx.run({ garageId: f.garageId, localDate: '2030-01-07' }, async (tx) => {
          await tx.appointments.create(newAppointment(f));
          await tx.appointments.create(newAppointment(f, { externalRef: 'order-1' }));
        }),
        'DUPLICATE',
      );
      assert.deepEqual(await f.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00')), []);
    },
  },
  {
    name: 'runs with the same key execute one at a time and each sees the commits of the ones before',
    run: async () => {
      const f = await setup();
      const key = { garageId: f.garageId, localDate: '2030-01-07' };
      let active = 0;
      let maxActive = 0;
      const seen = await Promise.all(
        Array.from({ length: 6 }, () =>
          f.bookingTx.run(key, async (tx) => {
            active += 1;
            maxActive = Math.max(maxActive, active);
            const before = (await tx.appointments.listOverlapping(f.garageId, at('10:00'), at('11:00'))).length;
            await sleep(10);
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
];
