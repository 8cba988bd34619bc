import type { CalendarQuery, DayVersions, GarageCalendar } from '@garage/domain';
import { sql } from 'kysely';
import type { GarageRow } from '../schema.js';
import { toClosure, toGarage, type ClosureRow } from './garage-rows.js';
import { toNumber } from './numbers.js';

/** `booking_days` rows as versions by date. */
export const versionsOf = (entries: Iterable<[string, string | number | bigint]>): DayVersions => {
  const versions = new Map<string, number>();
  for (const [day, version] of entries) versions.set(day, toNumber(version));
  return versions;
};

/** The garage as `to_json` writes a row: its timestamp as an RFC 3339 string. */
type GarageJson = Omit<GarageRow, 'created_at'> & { created_at: string };

interface CalendarColumns {
  garage_row: GarageJson | null;
  closures: ClosureRow[];
  versions: Record<string, number>;
}

export type CalendarRow = CalendarColumns & { ordinal: string | number };

/**
 * The garage, its closures over some dates and their versions, through the function `availability_calendar`
 * (migration 0009), once per query in the order given (`ordinal`). Dates null: no closure and no version match, the
 * garage alone. Booking and availability both read a garage this way: Postgres keeps a PL/pgSQL function's plans per
 * connection, where the same reads sent as a statement were planned on every request.
 */
export const calendarsStatement = (queries: readonly CalendarQuery[]) => sql<CalendarRow>`
  select q.ordinal, c.garage_row, c.closures, c.versions
    from unnest(${queries.map((q) => q.garageId)}::uuid[], ${queries.map((q) => q.dates?.from ?? null)}::date[],
                ${queries.map((q) => q.dates?.to ?? null)}::date[]) with ordinality as q(garage, first_date, last_date, ordinal),
         lateral availability_calendar(q.garage, q.first_date, q.last_date) as c`;

/** One garage's calendar: the same function called alone, planned once per connection with its parameters. */
export const calendarStatement = (garageId: string, from: string, to: string) =>
  sql<CalendarColumns>`select garage_row, closures, versions from availability_calendar(${garageId}, ${from}::date, ${to}::date)`;

/** A row of either statement, or null when it names no garage. */
export const toGarageCalendar = (row: CalendarColumns): GarageCalendar | null => {
  const garage = row.garage_row;
  if (!garage) return null;
  return {
    garage: toGarage({ ...garage, created_at: new Date(garage.created_at) }),
    // json writes a `date` as YYYY-MM-DD, the string the `date` parser gives (column-types.ts).
    closures: row.closures.map(toClosure),
    versions: versionsOf(Object.entries(row.versions)),
  };
};
