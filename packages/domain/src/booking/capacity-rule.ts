import { SlotFullError } from '../kernel/errors.js';
import type { BookingSettings } from '../garages/garage.js';
import type { BookingLockKey, BookingLocks } from './booking-lock.port.js';
import { remainingCapacity, slotOccupancy, type BookedInterval } from './occupancy.js';

/**
 * The capacity rule: every one of `slots` has fewer than `capacity` of the `booked` places overlapping it. A booking's
 * write applies it under the day's lock (`BookingWriter`), a reschedule through `ensureRoomUnderLock`; the database
 * repeats it in the function that books in one statement (docs/contributors/sql-rules.md).
 */
export const hasRoom = (
  settings: Pick<BookingSettings, 'capacity' | 'slotMinutes'>,
  slots: readonly Date[],
  booked: readonly BookedInterval[],
): boolean => remainingCapacity(settings.capacity, slots, slotOccupancy(settings.slotMinutes, booked)) > 0;

/**
 * The instants whose places the capacity rule counts for an interval starting at `start` over `slots`: from its start
 * to the end of its last slot. Whoever reads the places for `hasRoom` reads this span.
 */
export const placesSpan = (start: Date, slots: readonly Date[], slotMinutes: number): { from: Date; to: Date } => {
  const last = slots[slots.length - 1] ?? start;
  return { from: start, to: new Date(last.getTime() + slotMinutes * 60_000) };
};

/**
 * The capacity rule of a reschedule: takes the day's booking lock, reads the places held over the slots the interval
 * covers (the appointment being moved excepted), and refuses the interval with `SLOT_FULL` when one of its slots has
 * no room left (`hasRoom`). The caller writes the appointment in the same transaction, under the lock.
 */
export const ensureRoomUnderLock = async (
  locks: BookingLocks,
  lock: BookingLockKey,
  settings: Pick<BookingSettings, 'capacity' | 'slotMinutes'>,
  interval: { start: Date; slots: readonly Date[] },
  excludeId?: string,
): Promise<void> => {
  const { from, to } = placesSpan(interval.start, interval.slots, settings.slotMinutes);
  const booked = await locks.acquireAndListOverlapping(lock, from, to, excludeId);
  if (!hasRoom(settings, interval.slots, booked)) throw new SlotFullError();
};
