import type { Closure, Garage } from '../garages/garage.js';
import type { BookedInterval } from './occupancy.js';

/**
 * How many times each local date of a garage has changed, by `YYYY-MM-DD`; a date absent from the map is at version 0.
 * A date's version moves up with every committed transaction that took its booking lock (`BookingLocks`), in that
 * transaction: a read that sees a version sees every change of that date's places the version counts.
 */
export type DayVersions = ReadonlyMap<string, number>;

/** A garage and, when valid, the local dates an availability request asks for. */
export interface CalendarQuery {
  garageId: string;
  /** Null when the request's dates are invalid: then the garage alone (its settings check the rest of the request). */
  dates: { from: string; to: string } | null;
}

/** What an availability request needs before it computes anything, read at once. */
export interface GarageCalendar {
  garage: Garage;
  /** The closures overlapping the dates asked for (none without dates). */
  closures: Closure[];
  /** The versions of the dates asked for. */
  versions: DayVersions;
}

/** The places held over some days, with the versions those days had when the places were read. */
export interface DayPlaces {
  versions: DayVersions;
  places: BookedInterval[];
}

/** What availability reads (docs/operators/performance.md, "Availability"). */
export interface AvailabilityReader {
  /**
   * For each query, in order: the garage, its closures overlapping the local dates `dates.from`..`dates.to` and the
   * versions of those dates, read together; null for an unknown garage. Every query in one read, made after the call:
   * requests that arrive together may share it (apps/api's composition batches them).
   */
  findCalendars(queries: readonly CalendarQuery[]): Promise<(GarageCalendar | null)[]>;
  /**
   * The places held over `span` (what `AppointmentReader.listOverlapping` returns) and the versions of the local dates
   * `from`..`to`, read in one snapshot: the places are never older than the versions they are returned with, so that
   * an answer computed from them and kept under those versions is exact for as long as the versions stay.
   */
  readPlaces(garageId: string, from: string, to: string, span: { from: Date; to: Date }): Promise<DayPlaces>;
}
