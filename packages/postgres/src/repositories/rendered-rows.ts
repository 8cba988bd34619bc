import type { RenderedRows } from '@garage/domain';
import { sql, type RawBuilder } from 'kysely';

/** What a rendered list reads per row: the item (text, which the driver hands on as it came) and its keyset position. */
export interface RenderedRow {
  list_item: string;
  sort_ms: string;
  id: string;
}

/**
 * A list's sort column in epoch milliseconds, as text: the driver then parses no timestamp (on either backend), and
 * only the row that ends a page becomes a Date, for its cursor. Truncated like the driver's own Date, so that the
 * cursor names the same position a parsed row would have.
 */
export const sortMs = (column: string): RawBuilder<string> =>
  sql<string>`floor(extract(epoch from ${sql.ref(column)}) * 1000)::int8::text`;

export const renderedRows = (rows: RenderedRow[]): RenderedRows => ({
  items: rows.map((row) => row.list_item),
  positionAt(index) {
    const row = rows[index];
    if (!row) throw new RangeError(`no row ${index} in a list of ${rows.length}`);
    return { sortValue: new Date(Number(row.sort_ms)), id: row.id };
  },
});
