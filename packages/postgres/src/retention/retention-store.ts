import type { RetentionStore } from '@garage/domain';
import { sql, type Kysely } from 'kysely';
import { withErrorMapping } from '../errors.js';
import { SANDBOX_DATA, type RetainedTable } from './retained-tables.js';
import { oldestSandboxDataAt, purgeSandboxData } from './sandbox-data.js';

/**
 * Retention on `tables` (port `RetentionStore`). A batch is one autocommit statement: the oldest `limit` rows found
 * through the date column's index, deleted by their physical address (`ctid`, a TID scan), so that it holds row locks
 * on those rows only and for milliseconds. Two runs at once are harmless: the second waits for the first's rows, finds
 * them gone and deletes the next ones. Sandbox data (`SANDBOX_DATA`) is dated by each sandbox's last touch instead
 * (sandbox-data.ts).
 */
export const makeRetentionStore = (db: Kysely<any>, tables: readonly RetainedTable[]): RetentionStore => {
  const dateColumnOf = (table: string): string => {
    const found = tables.find((t) => t.table === table);
    if (!found) throw new Error(`no retention is declared for the table ${table}`);
    return found.dateColumn;
  };
  return withErrorMapping({
    async purgeBatch(table, before, limit) {
      if (table === SANDBOX_DATA) return purgeSandboxData(db, before, limit);
      const column = sql.ref(dateColumnOf(table));
      const result = await sql`
        delete from ${sql.table(table)}
         where ctid = any(array(
           select ctid from ${sql.table(table)} where ${column} <= ${before} order by ${column} limit ${limit}))`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },

    async oldestRowAt(table) {
      if (table === SANDBOX_DATA) return oldestSandboxDataAt(db);
      const column = sql.ref(dateColumnOf(table));
      const { rows } = await sql<{ oldest: Date | null }>`select min(${column}) as oldest from ${sql.table(table)}`.execute(db);
      return rows[0]?.oldest ?? null;
    },
  });
};
