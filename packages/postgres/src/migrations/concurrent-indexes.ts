import { sql, type Kysely } from 'kysely';

/** An index a migration asks for, built with `create index concurrently` once that migration has committed. */
export interface ConcurrentIndex {
  name: string;
  /** What follows the name: `on table (columns) [where …]`. */
  definition: string;
}

/**
 * Builds the indexes that are missing, concurrently, so that writes to their tables go on meanwhile (a plain
 * `create index` blocks them for the whole build). Postgres refuses `concurrently` inside a transaction, so this runs
 * after the migrations' transactions, on one connection, and again at every start: a build cut short (a crash, a
 * deadlock) leaves an invalid index, which is dropped and built again. The statement timeout of the API's pool is
 * lifted for the build: on a large table it takes longer than a request may, without blocking anyone.
 */
export const buildConcurrentIndexes = async (db: Kysely<any>, indexes: readonly ConcurrentIndex[]): Promise<string[]> => {
  if (indexes.length === 0) return [];
  return db.connection().execute(async (connection) => {
    const built: string[] = [];
    await sql`set statement_timeout = 0`.execute(connection);
    try {
      for (const { name, definition } of indexes) {
        const { rows } = await sql<{ valid: boolean }>`
          select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
           where c.relname = ${name} and c.relnamespace = current_schema()::regnamespace`.execute(connection);
        if (rows[0]?.valid) continue;
        if (rows[0]) await sql`drop index concurrently ${sql.ref(name)}`.execute(connection);
        await sql.raw(`create index concurrently ${name} ${definition}`).execute(connection);
        built.push(name);
      }
    } finally {
      await sql`reset statement_timeout`.execute(connection);
    }
    return built;
  });
};
