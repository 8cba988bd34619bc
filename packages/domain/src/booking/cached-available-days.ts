import { LRUCache } from 'lru-cache';
import type { BookingSettings, Garage } from '../garages/garage.js';
import type { AvailableDay, AvailableDays, DayQuery } from './available-days.js';

export interface AvailableDaysCacheOptions {
  /** Bytes the kept days may take together, by an estimate of their size. */
  maxBytes: number;
}

/** What a kept day costs in memory, roughly: its strings and objects (a full 8-hour day of 30-minute starts is ~2.5 KB). */
const sizeOf = (day: AvailableDay) => 200 + day.starts.length * 150;

/**
 * The settings a day's starts follow (`makeDayModel` and the capacity rule): kept with each day, so that a change of
 * them (made wherever, even by hand in the database) is seen by the very next request, which reads the garage anyway.
 * Notice and horizon are applied per request and are left out.
 */
const settingsKeyOf = (s: BookingSettings) => JSON.stringify([s.timezone, s.slotMinutes, s.capacity, s.weeklyHours]);

/** A day of a garage's settings, at a version: kept, or being computed. */
interface Entry<Day> {
  settings: string;
  version: number;
  day: Day;
}

const matches = <Day>(entry: Entry<Day> | undefined, settings: string, version: number): entry is Entry<Day> =>
  entry !== undefined && entry.settings === settings && entry.version === version;

/**
 * `AvailableDays` with a per-instance memory: a day is computed once per (garage, date, duration) and served again
 * while the date's version, read by the request, and the garage's settings are those it was computed at. Days whose
 * version moved are computed again, together, in one read; a request that needs a day already being computed at its
 * version waits for that computation instead of repeating it (after a booking, or when an instance starts, many
 * connectors ask for the same days at once). Exact across instances: the version lives in the database, moved in the
 * transaction of every change of the date's places (docs/operators/performance.md, "Availability").
 */
export const cachedAvailableDays = (inner: AvailableDays, { maxBytes }: AvailableDaysCacheOptions): AvailableDays => {
  const kept = new LRUCache<string, Entry<AvailableDay>>({ maxSize: maxBytes, sizeCalculation: ({ day }) => sizeOf(day) });
  const computing = new Map<string, Entry<Promise<AvailableDay>>>();

  /** Computes the days of `queries` in one read, announced in `computing` under their keys until it settles. */
  const compute = async (garage: Garage, queries: DayQuery[], durationMinutes: number, keys: string[], settings: string) => {
    const batch = inner.read(garage, queries, durationMinutes);
    const entries = queries.map((query, i) => {
      const day = batch.then((computed) => computed[i] as AvailableDay);
      // This request sees a failure through `batch`; a request waiting for the day sees it through `day`, and
      // nobody may be left with an unhandled rejection.
      day.catch(() => {});
      const entry = { settings, version: query.version, day };
      computing.set(keys[i] as string, entry);
      return entry;
    });
    try {
      const computed = await batch;
      computed.forEach((day, i) => kept.set(keys[i] as string, { settings, version: day.version, day }));
      return computed;
    } finally {
      entries.forEach((entry, i) => {
        if (computing.get(keys[i] as string) === entry) computing.delete(keys[i] as string);
      });
    }
  };

  return {
    async read(garage, days, durationMinutes) {
      const settings = settingsKeyOf(garage.booking);
      const keyOf = (date: string) => `${garage.id}|${durationMinutes}|${date}`;
      const missing: DayQuery[] = [];
      let waiting = false;
      const found = days.map((query) => {
        const key = keyOf(query.date);
        const hit = kept.get(key);
        if (matches(hit, settings, query.version)) return hit.day;
        const pending = computing.get(key);
        if (matches(pending, settings, query.version)) {
          waiting = true;
          return pending.day;
        }
        missing.push(query);
        return undefined;
      });
      let answer: AvailableDay[];
      if (!waiting && missing.length === 0) {
        // Every day kept, as for nearly every request: nothing to wait for.
        answer = found as AvailableDay[];
      } else {
        const computed =
          missing.length === 0 ? [] : await compute(garage, missing, durationMinutes, missing.map((q) => keyOf(q.date)), settings);
        let next = 0;
        answer = await Promise.all(found.map((day) => day ?? (computed[next++] as AvailableDay)));
      }
      // Every day comes from places read after this request read its versions, so it is at least as new, unless the
      // reads went to replicas that are not in step; such a day is read again for this request.
      const behind = days.filter((query, i) => (answer[i] as AvailableDay).version < query.version);
      if (behind.length === 0) return answer;
      const again = new Map((await inner.read(garage, behind, durationMinutes)).map((day) => [day.date, day]));
      return answer.map((day) => again.get(day.date) ?? day);
    },
  };
};
