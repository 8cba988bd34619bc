/** An appointment as the capacity rule sees it: the instants it occupies, `[startsAt, endsAt)`. */
export interface BookedInterval {
  startsAt: Date;
  endsAt: Date;
}

/** How many of the sorted `values` are below `bound` (or at most `bound` when `inclusive`): a binary search. */
const countBelow = (values: Float64Array, bound: number, inclusive: boolean): number => {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] as number) < bound || (inclusive && values[mid] === bound)) low = mid + 1;
    else high = mid;
  }
  return low;
};

/**
 * The occupancy of a slot `[slot, slot + slotMinutes)` is the number of appointments overlapping it. Overlap rather
 * than equal start times, so that a 60-minute appointment occupies both 30-minute slots it spans, and appointments
 * made under an older slot size or opening hours still count wherever they lie.
 *
 * An appointment overlaps `[from, to)` when it starts before `to` and ends after `from`. Every appointment ends after
 * it starts (a database check), so one that ends by `from` also started before `to`: the overlapping ones are those
 * starting before `to` minus those ending by `from`, two binary searches over the sorted starts and ends. Sorting is
 * O(b log b) once, each slot O(log b), instead of a scan of every appointment per slot; a busy 31-day availability no
 * longer blocks the event loop. Memoised per slot because availability asks about the same slot for every candidate
 * that covers it.
 */
export const slotOccupancy = (slotMinutes: number, booked: readonly BookedInterval[]) => {
  const slotMs = slotMinutes * 60_000;
  const starts = Float64Array.from(booked, (b) => b.startsAt.getTime()).sort();
  const ends = Float64Array.from(booked, (b) => b.endsAt.getTime()).sort();
  const counts = new Map<number, number>();
  return (slot: Date): number => {
    const from = slot.getTime();
    let count = counts.get(from);
    if (count === undefined) {
      count = countBelow(starts, from + slotMs, false) - countBelow(ends, from, true);
      counts.set(from, count);
    }
    return count;
  };
};

/** How many more appointments fit over `slots`: capacity minus the busiest of them. Full when ≤ 0. */
export const remainingCapacity = (capacity: number, slots: readonly Date[], occupancy: (slot: Date) => number): number =>
  slots.reduce((remaining, slot) => Math.min(remaining, capacity - occupancy(slot)), capacity);
