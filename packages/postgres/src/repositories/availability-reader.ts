import { isUuid, type AvailabilityReader, type GarageCalendar } from '@garage/domain';
import { sql } from 'kysely';
import type { Executor } from '../schema.js';
import { placesArguments, toInterval, type PlaceRow } from './appointment-repository.js';
import { calendarsStatement, toGarageCalendar, versionsOf } from './garage-calendar.js';
import { toNumber } from './numbers.js';

/** `readPlaces`' statement: one statement, so one snapshot; the places are as new as the versions, never older. */
export const placesStatement = (garageId: string, from: string, to: string, span: { from: Date; to: Date }) => sql<
  { day: string | null; version: string | number | null } & PlaceRow
>`
  select to_char(d.local_date, 'YYYY-MM-DD') as day, d.version, null::float8 as starts_ms, null::float8 as ends_ms
    from booking_days d
   where d.garage_id = ${garageId} and d.local_date between ${from} and ${to}
  union all
  select null, null, p.starts_ms, p.ends_ms
    from booking_places(${placesArguments(garageId, span.from, span.to)}) p`;

/**
 * Availability's reads (port `AvailabilityReader`): `findCalendars` runs for every availability request, `readPlaces`
 * when days are computed. Both read `booking_days` by its primary key, and the places through `booking_places`
 * (src/sql-rules/booking-days.ts).
 */
export const makeAvailabilityReader = (db: Executor): AvailabilityReader => ({
  async findCalendars(queries) {
    const calendars: (GarageCalendar | null)[] = queries.map(() => null);
    // A malformed id names no garage.
    const asked = queries.flatMap((query, at) => (isUuid(query.garageId) ? [{ query, at }] : []));
    if (asked.length === 0) return calendars;
    for (const row of (await calendarsStatement(asked.map((a) => a.query)).execute(db)).rows) {
      calendars[(asked[toNumber(row.ordinal) - 1] as (typeof asked)[number]).at] = toGarageCalendar(row);
    }
    return calendars;
  },

  async readPlaces(garageId, from, to, span) {
    if (!isUuid(garageId)) return { versions: new Map(), places: [] };
    const { rows } = await placesStatement(garageId, from, to, span).execute(db);
    const days: [string, string | number][] = [];
    const places = [];
    for (const row of rows) {
      if (row.day === null) places.push(toInterval(row));
      else days.push([row.day, row.version as string | number]);
    }
    return { versions: versionsOf(days), places };
  },
});
