import { InvalidReferenceError, isUuid, type BookingLockKey } from '@garage/domain';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Locks are held until their transaction ends, so they take a `Transaction` and nothing else: a lock taken on the pool
 * would be released at once, and the code that meant to hold it would not compile.
 */

/**
 * Serialises writers of one kind for one garage until the transaction ends (`scope` names the kind): an advisory lock,
 * where a hash collision between two names only makes their holders wait for each other.
 */
export const lockForGarage = async (trx: Transaction<Database>, scope: string, garageId: string): Promise<void> => {
  await sql`select pg_advisory_xact_lock(hashtext(${`${scope}:${garageId}`}))`.execute(trx);
};

/**
 * The booking lock of one garage and local date (port `BookingLocks`): the function `lock_booking_day`
 * (src/sql-rules/booking-days.ts), which upserts the date's row of `booking_days` with its version moved up, so that the
 * row lock is held until the transaction ends and the version moves with its commit. Why a row lock: the check that must not race ("fewer than `capacity` appointments overlap these
 * slots") reads rows that may not exist yet, so no appointment row can be locked (`FOR UPDATE` cannot lock an empty
 * slot), and locking the garage row would also block unrelated writers of that row and every other day; SERIALIZABLE
 * would let competing bookings run and then abort all but one with serialization failures that each request would
 * have to retry, a storm under exactly the load (many requests for one slot) this must handle. The day's row queues
 * the competitors for one (garage, day) (an insert that meets another transaction's uncommitted insert of the same key
 * waits for it too), is released by commit or rollback even if the process dies, and counts the day's changes for
 * availability's per-day model. Every unit of work runs in READ COMMITTED, so each statement after the lock sees every
 * booking committed before it was granted. The garage must exist (a foreign key): an unknown one is INVALID_REFERENCE.
 */
export const acquireBookingLock = async (trx: Transaction<Database>, key: BookingLockKey): Promise<void> => {
  if (!isUuid(key.garageId)) throw new InvalidReferenceError('Unknown garage');
  await sql`select lock_booking_day(${key.garageId}, ${key.localDate}::date)`.execute(trx);
};
