import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export type TableName = keyof Database & string;

/**
 * How many rows one transaction must write to a table before its statistics are refreshed at commit. A new
 * installation's tables were never analyzed, and autovacuum analyzes a table a minute later at best, once a tenth of it
 * changed: meanwhile the planner guesses a handful of rows for a garage that has just imported thousands, reads its
 * sync pages through a bitmap scan and sorts every matching row, where the `(garage_id, updated_at, id)` index would
 * read a page in order (docs/operators/performance.md, "Bulk writes and the planner"). Below this, a plan chosen on
 * stale statistics sorts a few hundred rows at most, and refreshing costs more than it saves.
 */
export const STALE_STATISTICS_ROWS = 500;

/**
 * `ANALYZE` of `tables`: the planner's statistics as the committed rows now are. Run it after the transaction that
 * wrote them has committed: inside it, `ANALYZE` would hold its lock (which blocks autovacuum and concurrent index
 * builds) until the commit. Sandbox copies and resets, retention's deletes and any other set-based write outside a
 * repository's bulk operation call it the same way once their transaction is done.
 */
export const refreshPlannerStatistics = async (db: Kysely<Database>, tables: Iterable<TableName>): Promise<void> => {
  const names = [...new Set(tables)];
  if (names.length === 0) return;
  await sql`analyze ${sql.join(names.map((name) => sql.table(name)))}`.execute(db);
};

/** Rows a transaction wrote in bulk, by table; what its unit of work refreshes once the transaction commits. */
export interface BulkWrites {
  record(tables: readonly TableName[], rows: number): void;
  /** The tables that reached `STALE_STATISTICS_ROWS`. */
  stale(): TableName[];
}

export const makeBulkWrites = (): BulkWrites => {
  const rowsByTable = new Map<TableName, number>();
  return {
    record(tables, rows) {
      for (const table of tables) rowsByTable.set(table, (rowsByTable.get(table) ?? 0) + rows);
    },
    stale: () => [...rowsByTable].filter(([, rows]) => rows >= STALE_STATISTICS_ROWS).map(([table]) => table),
  };
};
