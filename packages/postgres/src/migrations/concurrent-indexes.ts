import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';

/** An index a migration asks for, built with `create index concurrently` once that migration has committed. */
export interface ConcurrentIndex {
  name: string;
  /** What follows the name: `on table (columns) [where …]`. */
  definition: string;
}

/** Arbitrary, fixed: held by the one process building indexes, while the others starting beside it wait. */
const INDEX_BUILD_LOCK = 736_451_903;
const LOCK_POLL_MS = 250;

/**
 * Builds the indexes that are missing, concurrently, so that writes to their tables go on meanwhile (a plain
 * `create index` blocks them for the whole build). Postgres refuses `concurrently` inside a transaction, so this runs
 * after the migrations' transactions, on one connection, and again at every start: a build cut short (a crash, a
 * deadlock) leaves an invalid index, which is dropped and built again. The statement timeout of the API's pool is
 * lifted for the build: on a large table it takes longer than a request may, without blocking anyone.
 *
 * Instances that start together take turns under an advisory lock, tried rather than waited for: a session waiting
 * inside a statement holds a snapshot, which a concurrent build waits for in turn.
 */
export const buildConcurrentIndexes = async (db: Kysely<any>, indexes: readonly ConcurrentIndex[]): Promise<string[]> => {
  if (indexes.length === 0) return [];
  return db.connection().execute(async (connection) => {
    const validity = async (name: string): Promise<boolean | null> => {
      const { rows } = await sql<{ valid: boolean }>`
        select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
         where c.relname = ${name} and c.relnamespace = current_schema()::regnamespace`.execute(connection);
      return rows[0]?.valid ?? null;
    };
    const pending = async () => (await Promise.all(indexes.map(async (index) => ((await validity(index.name)) ? null : index)))).filter((i) => i !== null);
    if ((await pending()).length === 0) return [];
    const tryLock = async () => (await sql<{ locked: boolean }>`select pg_try_advisory_lock(${INDEX_BUILD_LOCK}) as locked`.execute(connection)).rows[0]?.locked;
    while (!(await tryLock())) await sleep(LOCK_POLL_MS);
    const built: string[] = [];
    await sql`set statement_timeout = 0`.execute(connection);
    try {
      for (const { name, definition } of await pending()) {
        if ((await validity(name)) === false) await sql`drop index concurrently ${sql.ref(name)}`.execute(connection);
        await sql.raw(`create index concurrently ${name} ${definition}`).execute(connection);
        built.push(name);
      }
    } finally {
      await sql`reset statement_timeout`.execute(connection);
      await sql`select pg_advisory_unlock(${INDEX_BUILD_LOCK})`.execute(connection);
    }
    return built;
  });
};
