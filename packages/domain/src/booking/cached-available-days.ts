import { LRUCache } from 'lru-cache';
import type { BookingSettings } from '../garages/garage.js';
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

/**
 * `AvailableDays` with a per-instance memory: a day is computed once per (garage, date, duration) and served again
 * while the date's version, read by the request, and the garage's settings are those it was computed at. Days whose
 * version moved are computed again, together, in one read. Exact across instances: the version lives in the database,
 * moved in the transaction of every change of the date's places (docs/operators/performance.md, "Availability").
 */
export const cachedAvailableDays = (inner: AvailableDays, { maxBytes }: AvailableDaysCacheOptions): AvailableDays => {
  const kept = new LRUCache<string, { settings: string; day: AvailableDay }>({
    maxSize: maxBytes,
    sizeCalculation: ({ day }) => sizeOf(day),
  });
  return {
    async read(garage, days, durationMinutes) {
      const settings = settingsKeyOf(garage.booking);
      const keyOf = (date: string) => `${garage.id}|${durationMinutes}|${date}`;
      const answer: (AvailableDay | undefined)[] = [];
      const stale: DayQuery[] = [];
      for (const query of days) {
        const hit = kept.get(keyOf(query.date));
        const fresh = hit !== undefined && hit.settings === settings && hit.day.version === query.version;
        answer.push(fresh ? hit.day : undefined);
        if (!fresh) stale.push(query);
      }
      if (stale.length === 0) return answer as AvailableDay[];
      const computed = new Map((await inner.read(garage, stale, durationMinutes)).map((day) => [day.date, day]));
      for (const day of computed.values()) kept.set(keyOf(day.date), { settings, day });
      return answer.map((day, i) => day ?? (computed.get((days[i] as DayQuery).date) as AvailableDay));
    },
  };
};
