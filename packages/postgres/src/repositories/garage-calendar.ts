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

/** The garage's columns, decoded by the pool's type parsers; all null when no garage has the id. */
type CalendarColumns = { [K in keyof GarageRow]: GarageRow[K] | null } & {
  closures: ClosureRow[];
  versions: Record<string, number>;
};

export type CalendarRow = CalendarColumns & { ordinal: string | number };

/**
 * The garage, its closures over some dates and their versions, through the function `garage_calendar`
 * (src/sql-rules/booking-days.ts), once per query in the order given (`ordinal`). Dates null: no closure and no
 * version match, the garage alone. Booking and availability both read a garage this way: Postgres keeps a PL/pgSQL function's plans per
 * connection, where the same reads sent as a statement were planned on every request.
 */
export const calendarsStatement = (queries: readonly CalendarQuery[]) => sql<CalendarRow>`
  select q.ordinal, (c.garage_row).*, c.closures, c.versions
    from unnest(${queries.map((q) => q.garageId)}::uuid[], ${queries.map((q) => q.dates?.from ?? null)}::date[],
                ${queries.map((q) => q.dates?.to ?? null)}::date[]) with ordinality as q(garage, first_date, last_date, ordinal),
         lateral garage_calendar(q.garage, q.first_date, q.last_date) as c`;

/**
 * One garage's calendar: the same function called alone, planned once per connection with its parameters, with the
 * statement's time to the millisecond (`read_at`), which a booking stamps its appointment with.
 */
export const calendarStatement = (garageId: string, from: string, to: string) =>
  sql<CalendarColumns & { read_at: Date }>`select (c.garage_row).*, c.closures, c.versions, date_trunc('milliseconds', now()) as read_at
    from garage_calendar(${garageId}, ${from}::date, ${to}::date) c`;

/** A row of either statement, or null when it names no garage. */
export const toGarageCalendar = (row: CalendarColumns): GarageCalendar | null => {
  const { closures, versions, ...garage } = row;
  if (garage.id === null) return null;
  return {
    garage: toGarage(garage as GarageRow),
    // json writes a `date` as YYYY-MM-DD, the string the `date` parser gives (column-types.ts).
    closures: closures.map(toClosure),
    versions: versionsOf(Object.entries(versions)),
  };
};
