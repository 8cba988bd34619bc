import { sql, type Kysely } from 'kysely';
import { inTransaction } from '../transactions.js';
import { LIST_ITEM_TABLES } from './list-item-tables.js';

/** Rows per batch: a batch locks these rows only, for the few milliseconds its update takes. */
const BATCH_ROWS = 1000;

interface Pending {
  generation: string;
  table_name: string;
  after_key: string | null;
}

/**
 * Renders again the existing rows of every list a generated migration queued (see `replaceListItemFunctions`): in
 * batches of `batchRows` rows in key order, each batch its own transaction that also records how far it got, so that
 * no lock is held longer than one batch (and never waited for longer than `lock_timeout`, 1 s), writers keep writing
 * meanwhile, and a run that stops (a crash, a lock timeout) resumes where it stopped the next time it runs. A row is
 * rendered by touching its `list_item`: the trigger renders it, `updated_at` stays, so connectors do not resync it.
 * Runners on several instances take turns: the queue row of a table is locked while a batch of it runs.
 * Resolves to the number of rows rendered again.
 */
export const renderListItemsAgain = async (db: Kysely<any>, { batchRows = BATCH_ROWS }: { batchRows?: number } = {}): Promise<number> => {
  let rendered = 0;
  for (;;) {
    const batch = await inTransaction(db, async (trx) => {
      await sql`set local lock_timeout = '1s'`.execute(trx);
      const { rows } = await sql<Pending>`
        select generation, table_name, after_key::text as after_key from list_item_renders
         where done_at is null order by generation, table_name limit 1 for update skip locked`.execute(trx);
      const pending = rows[0];
      if (!pending) return null;
      const list = LIST_ITEM_TABLES.find((l) => l.table === pending.table_name);
      if (!list) throw new Error(`list_item_renders names ${pending.table_name}, which is not a list`);
      const table = sql.table(list.table);
      const key = sql.ref(list.key);
      const after = pending.after_key === null ? sql`true` : sql`${key} > ${pending.after_key}::uuid`;
      const touched = await sql<{ key: string }>`
        update ${table} set list_item = null
         where ${key} in (select ${key} from ${table} where ${after} order by ${key} limit ${batchRows} for update)
        returning ${key}::text as key`.execute(trx);
      // Lowercase hex: string order is uuid order.
      const last = touched.rows.reduce<string | null>((max, { key }) => (max === null || key > max ? key : max), null);
      const done = touched.rows.length < batchRows;
      await sql`
        update list_item_renders
           set after_key = coalesce(${last}::uuid, after_key),
               done_at = case when ${done} then now() end
         where generation = ${pending.generation} and table_name = ${pending.table_name}`.execute(trx);
      return touched.rows.length;
    });
    if (batch === null) return rendered;
    rendered += batch;
  }
};
