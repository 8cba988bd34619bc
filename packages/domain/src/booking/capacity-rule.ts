import { SlotFullError } from '../kernel/errors.js';
import type { BookingSettings } from '../garages/garage.js';
import type { BookingLockKey, BookingLocks } from './booking-lock.port.js';
import { remainingCapacity, slotOccupancy } from './occupancy.js';

/**
 * The capacity rule of a booking and of a reschedule alike: takes the day's booking lock, reads the places held over
 * the slots the interval covers (the appointment being moved excepted), and refuses the interval with `SLOT_FULL`
 * when one of its slots has no room left. The caller writes the appointment in the same transaction, under the lock.
 */
export const ensureRoomUnderLock = async (
  locks: BookingLocks,
  lock: BookingLockKey,
  settings: Pick<BookingSettings, 'capacity' | 'slotMinutes'>,
  interval: { start: Date; slots: readonly Date[] },
  excludeId?: string,
): Promise<void> => {
  const last = interval.slots[interval.slots.length - 1] ?? interval.start;
  const booked = await locks.acquireAndListOverlapping(
    lock,
    interval.start,
    new Date(last.getTime() + settings.slotMinutes * 60_000),
    excludeId,
  );
  if (remainingCapacity(settings.capacity, interval.slots, slotOccupancy(settings.slotMinutes, booked)) <= 0) {
    throw new SlotFullError();
  }
};
