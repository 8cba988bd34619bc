import { isUuid, type AvailabilityReader, type DayVersions } from '@garage/domain';
import { sql } from 'kysely';
import type { Executor, GarageRow } from '../schema.js';
import { placesArguments, toInterval, type PlaceRow } from './appointment-repository.js';
import { toClosure, toGarage, type ClosureRow } from './garage-repository.js';
import { toNumber } from './numbers.js';

/** A date as `YYYY-MM-DD` whatever the session's DateStyle (a json key is the date's text output, which follows it). */
const dayText = sql`to_char(d.local_date, 'YYYY-MM-DD')`;

/** `booking_days` rows as versions by date. */
const versionsOf = (entries: Iterable<[string, string | number | bigint]>): DayVersions => {
  const versions = new Map<string, number>();
  for (const [day, version] of entries) versions.set(day, toNumber(version));
  return versions;
};

type CalendarRow = GarageRow & { closures: ClosureRow[]; versions: Record<string, number> };

/** `findCalendar`'s statement with dates: the garage, and with it its closures and the versions of the dates, as json. */
export const calendarStatement = (garageId: string, dates: { from: string; to: string }) => sql<CalendarRow>`
  select g.*,
         coalesce((select json_agg(json_build_object('id', c.id, 'garage_id', c.garage_id, 'from_date', c.from_date,
                                                     'to_date', c.to_date, 'reason', c.reason) order by c.from_date, c.id)
                     from garage_closures c
                    where c.garage_id = g.id and c.from_date <= ${dates.to} and c.to_date >= ${dates.from}), '[]') as closures,
         coalesce((select json_object_agg(${dayText}, d.version)
                     from booking_days d
                    where d.garage_id = g.id and d.local_date between ${dates.from} and ${dates.to}), '{}') as versions
    from garages g
   where g.id = ${garageId}`;

/** `readPlaces`' statement: one statement, so one snapshot; the places are as new as the versions, never older. */
export const placesStatement = (garageId: string, from: string, to: string, span: { from: Date; to: Date }) => sql<
  { day: string | null; version: string | number | null } & PlaceRow
>`
  select ${dayText} as day, d.version, null::float8 as starts_ms, null::float8 as ends_ms
    from booking_days d
   where d.garage_id = ${garageId} and d.local_date between ${from} and ${to}
  union all
  select null, null, p.starts_ms, p.ends_ms
    from booking_places(${placesArguments(garageId, span.from, span.to)}) p`;

/**
 * Availability's reads (port `AvailabilityReader`), as SQL written once: `findCalendar` runs on every availability
 * request. Both read `booking_days` by its primary key, and the places through `booking_places` (migration 0009).
 */
export const makeAvailabilityReader = (db: Executor): AvailabilityReader => ({
  async findCalendar(garageId, dates) {
    if (!isUuid(garageId)) return null;
    if (dates === null) {
      const { rows } = await sql<GarageRow>`select * from garages where id = ${garageId}`.execute(db);
      return rows[0] ? { garage: toGarage(rows[0]), closures: [], versions: new Map() } : null;
    }
    const row = (await calendarStatement(garageId, dates).execute(db)).rows[0];
    // json_agg writes a `date` as YYYY-MM-DD, the string the `date` parser gives (column-types.ts).
    return row ? { garage: toGarage(row), closures: row.closures.map(toClosure), versions: versionsOf(Object.entries(row.versions)) } : null;
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
