/** An appointment as the capacity rule sees it: the instants it occupies, `[startsAt, endsAt)`. */
export interface BookedInterval {
  startsAt: Date;
  endsAt: Date;
}

/**
 * The occupancy of a slot `[slot, slot + slotMinutes)` is the number of appointments overlapping it. Overlap rather
 * than equal start times, so that a 60-minute appointment occupies both 30-minute slots it spans, and appointments
 * made under an older slot size or opening hours still count wherever they lie. Memoised per slot because
 * availability asks about the same slot for every candidate that covers it.
 */
export const slotOccupancy = (slotMinutes: number, booked: readonly BookedInterval[]) => {
  const slotMs = slotMinutes * 60_000;
  const counts = new Map<number, number>();
  return (slot: Date): number => {
    const from = slot.getTime();
    let count = counts.get(from);
    if (count === undefined) {
      count = booked.filter((b) => b.startsAt.getTime() < from + slotMs && b.endsAt.getTime() > from).length;
      counts.set(from, count);
    }
    return count;
  };
};

/** How many more appointments fit over `slots`: capacity minus the busiest of them. Full when ≤ 0. */
export const remainingCapacity = (capacity: number, slots: readonly Date[], occupancy: (slot: Date) => number): number =>
  slots.reduce((remaining, slot) => Math.min(remaining, capacity - occupancy(slot)), capacity);
