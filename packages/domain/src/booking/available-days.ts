import type { Garage } from '../garages/garage.js';
import type { AvailabilityReader } from './availability-reader.port.js';
import { remainingCapacity, slotOccupancy } from './occupancy.js';
import type { LocalTime } from './local-time.js';
import { makeDayModel } from './slot-model.js';

/** A start that availability lists (docs/reference/contract.md §4.1). */
export interface AvailableStart {
  /** RFC 3339 in the garage's offset at that instant. */
  startsAt: string;
  endsAt: string;
  /** How many more appointments of this duration fit at this start (≥ 1). */
  remaining: number;
}

/** A local date whose starts are wanted, with its version as the request read it. */
export interface DayQuery {
  date: string;
  version: number;
}

/**
 * The bookable starts of one local date of a garage for one duration, at any time: the same until the date's version
 * or the garage's settings change. Notice, horizon and closures are not applied here (they depend on the time or are
 * read per request); they only remove starts.
 */
export interface AvailableDay {
  date: string;
  /** The date's version its places were read at. */
  version: number;
  /** Ascending by start; shared between the requests that use the day, never changed. */
  starts: readonly AvailableStart[];
  /** The instants of `starts` in epoch milliseconds, for the notice's cut. */
  startMs: readonly number[];
}

/**
 * The per-day model of availability: the bookable starts of some local dates of a garage. The plain implementation
 * (`makeAvailableDays`) computes them; `cachedAvailableDays` keeps them per instance until a date's version moves.
 */
export interface AvailableDays {
  /**
   * One `AvailableDay` per query, in the same order. `days` are ascending and distinct, and none is closed. A day may
   * come back at a later version than asked for (its places were read after the request's versions), never earlier.
   */
  read(garage: Garage, days: readonly DayQuery[], durationMinutes: number): Promise<AvailableDay[]>;
}

/**
 * Computes the days: one read of the places over the first to the last date with their versions, then, per date,
 * the day model's intervals that the capacity rule leaves room for (the rule booking checks under its lock).
 */
export const makeAvailableDays = ({
  availability,
  localTime,
}: {
  availability: Pick<AvailabilityReader, 'readPlaces'>;
  localTime: LocalTime;
}): AvailableDays => ({
  async read(garage, days, durationMinutes) {
    const first = days[0];
    const last = days[days.length - 1];
    if (first === undefined || last === undefined) return [];
    const settings = garage.booking;
    const model = makeDayModel(settings, localTime);
    const { versions, places } = await availability.readPlaces(garage.id, first.date, last.date, model.span(first.date, last.date));
    const occupancy = slotOccupancy(settings.slotMinutes, places);
    return days.map(({ date }) => {
      const starts: AvailableStart[] = [];
      const startMs: number[] = [];
      for (const interval of model.starts(date, durationMinutes)) {
        const remaining = remainingCapacity(settings.capacity, interval.slots, occupancy);
        if (remaining > 0) {
          starts.push({ startsAt: interval.startsAt, endsAt: interval.endsAt, remaining });
          startMs.push(interval.start.getTime());
        }
      }
      return { date, version: versions.get(date) ?? 0, starts, startMs };
    });
  },
});
