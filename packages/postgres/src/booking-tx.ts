import type { AppointmentRepository, BookingTransaction, BookingTx, Outbox } from '@garage/domain';
import { sql, type Kysely } from 'kysely';
import { toDomainError } from './errors.js';
import { makeAppointmentRepository } from './repositories/appointment-repository.js';
import type { Database } from './schema.js';
import { makeOutbox } from './webhooks/outbox.js';

/** What a booking may touch under the lock: its appointments, and the outbox for the `appointment.created` event. */
export interface PostgresBookingTransaction extends BookingTransaction {
  appointments: AppointmentRepository;
  outbox: Outbox;
}

/**
 * The booking lock of the `BookingTx` port: one transaction per booking, in READ COMMITTED (set explicitly, whatever
 * the server default), whose first statement takes a transaction-scoped advisory lock named after the garage and
 * the local date; every later read therefore sees every booking committed before the lock was granted.
 *
 * Why an advisory lock: the check that must not race ("fewer than `capacity` appointments overlap these slots") reads
 * rows that may not exist yet, so there is no row to lock (`FOR UPDATE` cannot lock an empty slot, and locking the
 * garage row would also block unrelated writers of that row and every other day), while SERIALIZABLE would let
 * competing bookings run and then abort all but one with serialization failures that each request would have to
 * retry, a storm under exactly the load (many requests for one slot) this must handle. The advisory lock queues
 * the competitors for one (garage, day), is released by commit or rollback even if the process dies, and needs no
 * schema. A hash collision between two keys only makes their bookings wait for each other.
 */
export const makeBookingTx = (db: Kysely<Database>): BookingTx<PostgresBookingTransaction> => ({
  async run(key, work) {
    try {
      return await db
        .transaction()
        .setIsolationLevel('read committed')
        .execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(hashtextextended(${`booking:${key.garageId}:${key.localDate}`}, 0))`.execute(trx);
          return work({ appointments: makeAppointmentRepository(trx), outbox: makeOutbox(trx) });
        });
    } catch (err) {
      // begin, the lock and commit fail outside any repository method (connection lost, statement timeout).
      throw toDomainError(err);
    }
  },
});
