import type { AppointmentRepository } from './appointment-repository.port.js';

/** What a booking may touch while it holds the lock. Adapters extend it (an outbox, say) for `onBooked` hooks. */
export interface BookingTransaction {
  appointments: AppointmentRepository;
}

/** The unit a booking locks: a booking lies on one local date of one garage, so only that date's bookings compete. */
export interface BookingLockKey {
  garageId: string;
  /** The garage's local date `YYYY-MM-DD` of the appointment. */
  localDate: string;
}

/**
 * Runs `work` as one transaction that holds the booking lock of `key` (CONTRACT.md §4.1: "concurrent requests never
 * overbook"). The adapter must guarantee:
 *
 * - Mutual exclusion: two `run`s with the same `garageId` and `localDate` never execute `work` at the same time.
 *   Locking the whole garage (ignoring `localDate`) is allowed and also correct; the in-memory fake locks per
 *   `(garageId, localDate)`, the weakest guarantee allowed, so that domain tests run against it.
 * - Fresh reads: every read inside `work` sees every appointment committed by a `run` that released the lock
 *   before this one got it (Postgres: READ COMMITTED, lock taken first, e.g. `pg_advisory_xact_lock`).
 * - Atomicity: writes through `tx` commit when `work` resolves and roll back when it rejects; the lock is released
 *   at commit or rollback, never before. `run` resolves or rejects as `work` does.
 */
export interface BookingTx<Tx extends BookingTransaction = BookingTransaction> {
  run<T>(key: BookingLockKey, work: (tx: Tx) => Promise<T>): Promise<T>;
}
