import { isUuid, type AvailabilityReader, type CalendarQuery, type DayVersions, type GarageCalendar } from '@garage/domain';
import { sql } from 'kysely';
import type { Executor, GarageRow } from '../schema.js';
import { placesArguments, toInterval, type PlaceRow } from './appointment-repository.js';
import { toClosure, toGarage, type ClosureRow } from './garage-repository.js';
import { toNumber } from './numbers.js';

/** `booking_days` rows as versions by date. */
const versionsOf = (entries: Iterable<[string, string | number | bigint]>): DayVersions => {
  const versions = new Map<string, number>();
  for (const [day, version] of entries) versions.set(day, toNumber(version));
  return versions;
};

/** The garage as `to_json` writes a row: its timestamp as an RFC 3339 string. */
type GarageJson = Omit<GarageRow, 'created_at'> & { created_at: string };

/**
 * `findCalendars`' statement: the function `availability_calendar` (migration 0009), whose plans Postgres keeps per
 * connection, once per query, in the order given (`ordinal`). Dates null: no closure and no version match, the garage
 * alone.
 */
export const calendarsStatement = (queries: readonly CalendarQuery[]) => sql<{
  ordinal: string | number;
  garage_row: GarageJson | null;
  closures: ClosureRow[];
  versions: Record<string, number>;
}>`
  select q.ordinal, c.garage_row, c.closures, c.versions
    from unnest(${queries.map((q) => q.garageId)}::uuid[], ${queries.map((q) => q.dates?.from ?? null)}::date[],
                ${queries.map((q) => q.dates?.to ?? null)}::date[]) with ordinality as q(garage, first_date, last_date, ordinal),
         lateral availability_calendar(q.garage, q.first_date, q.last_date) as c`;

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
 * (migration 0009).
 */
export const makeAvailabilityReader = (db: Executor): AvailabilityReader => ({
  async findCalendars(queries) {
    const calendars: (GarageCalendar | null)[] = queries.map(() => null);
    // A malformed id names no garage.
    const asked = queries.flatMap((query, at) => (isUuid(query.garageId) ? [{ query, at }] : []));
    if (asked.length === 0) return calendars;
    for (const row of (await calendarsStatement(asked.map((a) => a.query)).execute(db)).rows) {
      const garage = row.garage_row;
      if (!garage) continue;
      // json writes a `date` as YYYY-MM-DD, the string the `date` parser gives (column-types.ts).
      calendars[(asked[toNumber(row.ordinal) - 1] as (typeof asked)[number]).at] = {
        garage: toGarage({ ...garage, created_at: new Date(garage.created_at) }),
        closures: row.closures.map(toClosure),
        versions: versionsOf(Object.entries(row.versions)),
      };
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
