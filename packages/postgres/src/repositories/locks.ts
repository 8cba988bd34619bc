import type { BookingLockKey } from '@garage/domain';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Locks are transaction-scoped advisory locks, so they take a `Transaction` and nothing else: a lock taken on the pool
 * would be released at once, and the code that meant to hold it would not compile. A hash collision between two
 * names only makes their holders wait for each other.
 */

/** Serialises writers of one kind for one garage until the transaction ends (`scope` names the kind). */
export const lockForGarage = async (trx: Transaction<Database>, scope: string, garageId: string): Promise<void> => {
  await sql`select pg_advisory_xact_lock(hashtext(${`${scope}:${garageId}`}))`.execute(trx);
};

/**
 * The booking lock of one garage and local date (port `BookingLocks`). Why an advisory lock: the check that must not
 * race ("fewer than `capacity` appointments overlap these slots") reads rows that may not exist yet, so there is no
 * row to lock (`FOR UPDATE` cannot lock an empty slot, and locking the garage row would also block unrelated writers
 * of that row and every other day), while SERIALIZABLE would let competing bookings run and then abort all but one
 * with serialization failures that each request would have to retry, a storm under exactly the load (many requests
 * for one slot) this must handle. The advisory lock queues the competitors for one (garage, day), is released by
 * commit or rollback even if the process dies, and needs no schema. Every unit of work runs in READ COMMITTED, so each
 * statement after the lock sees every booking committed before it was granted.
 */
export const acquireBookingLock = async (trx: Transaction<Database>, key: BookingLockKey): Promise<void> => {
  await sql`select pg_advisory_xact_lock(hashtextextended(${bookingLockName(key)}, 0))`.execute(trx);
};

/** The name hashed into a booking lock's key, here and in the function `booking_places_under_lock` (migration 0006). */
export const bookingLockName = (key: BookingLockKey): string => `booking:${key.garageId}:${key.localDate}`;
