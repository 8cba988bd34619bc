import type { BookedInterval } from './occupancy.js';

/** The unit a booking locks: a booking lies on one local date of one garage, so only that date's bookings compete. */
export interface BookingLockKey {
  garageId: string;
  /** The garage's local date `YYYY-MM-DD` of the appointment. */
  localDate: string;
}

/**
 * The booking lock (docs/reference/contract.md §4.1: "concurrent requests never overbook"), reachable only from a unit of work's
 * transaction, so that it cannot be taken where nothing would release it. The adapter must guarantee:
 *
 * - Mutual exclusion: two transactions holding the lock of the same `garageId` and `localDate` never overlap; the
 *   second waits in `acquire` until the first commits or rolls back. Locking the whole garage (ignoring `localDate`)
 *   is allowed and also correct; the in-memory fake locks per `(garageId, localDate)`, the weakest guarantee allowed.
 * - Fresh reads: every read after `acquire` returns sees every appointment committed by a transaction that held the
 *   lock before (Postgres: READ COMMITTED, `pg_advisory_xact_lock`).
 * - Release at commit or rollback, never before.
 * - A change count: when a transaction that acquired the lock of a date commits, that date's version
 *   (`AvailabilityReader`) moves up, atomically with the transaction's writes; a rollback moves nothing. Availability
 *   keeps what it computed for a date until its version moves, so every change of the places a date holds takes the
 *   date's lock: booking, rescheduling (both dates), cancelling, any status change (`lockAppointmentDays`).
 * A transaction that locks several days acquires them in `compareBookingLockKeys` order, so that two such transactions
 * cannot deadlock.
 */
export interface BookingLocks {
  acquire(key: BookingLockKey): Promise<void>;
  /**
   * `acquire(key)`, then what `appointments.listOverlapping(key.garageId, from, to, excludeId)` returns, read after
   * the lock was granted (fresh reads above). One step, so that an adapter can take the lock and read in one round
   * trip: the check that must not race is made under the lock on this read.
   */
  acquireAndListOverlapping(key: BookingLockKey, from: Date, to: Date, excludeId?: string): Promise<BookedInterval[]>;
}

/** The one order in which a transaction takes several booking locks. */
export const compareBookingLockKeys = (a: BookingLockKey, b: BookingLockKey): number =>
  a.garageId === b.garageId ? a.localDate.localeCompare(b.localDate) : a.garageId.localeCompare(b.garageId);

/** `keys` without repeats, in `compareBookingLockKeys` order: the order to acquire them in. */
export const lockOrder = (keys: readonly BookingLockKey[]): BookingLockKey[] =>
  [...keys]
    .sort(compareBookingLockKeys)
    .filter((key, i, sorted) => i === 0 || compareBookingLockKeys(key, sorted[i - 1] as BookingLockKey) !== 0);
