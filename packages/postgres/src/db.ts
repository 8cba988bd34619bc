import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

// `date` stays a `YYYY-MM-DD` string: converting it to a JS Date would shift it by the process time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Kysely<Database>;

export interface PostgresOptions {
  connectionString: string;
  /** Pool size per process. */
  max?: number;
  /** Fail fast when Postgres is unreachable instead of queueing requests (CONTRACT.md §6: 503 within seconds). */
  connectionTimeoutMillis?: number;
  statementTimeoutMillis?: number;
  applicationName?: string;
}

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Cheap liveness probe for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
  pool?: pg.Pool;
}

export const connectPostgres = (options: PostgresOptions): DatabaseHandle => {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 2000,
    statement_timeout: options.statementTimeoutMillis ?? 10_000,
    idleTimeoutMillis: 30_000,
    application_name: options.applicationName ?? 'garage-api',
  });
  // An idle client losing its connection emits on the pool; without a listener that would crash the process.
  pool.on('error', () => {});
  // A checked-out client (e.g. idle inside a transaction) emits on itself, where pg-pool listens only while it is
  // idle: without this, a Postgres restart mid-transaction would crash the process. The failure still reaches the
  // next query on that client, and pg-pool discards the client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    pool,
    ping: async () => {
      await pool.query('select 1');
    },
    // Kysely ends the pool only if it ever ran a query; connections opened by `ping` alone must be closed too.
    close: async () => {
      await db.destroy();
      if (!pool.ending && !pool.ended) await pool.end();
    },
  };
};

/** Embedded Postgres (WASM) for the zero-configuration start: same SQL, same repositories, one process. */
export const connectPglite = async (dataDir: string | undefined): Promise<DatabaseHandle> => {
  const { PGlite } = await import('@electric-sql/pglite');
  // PGlite parses `date` into a JS Date by default; keep it the same `YYYY-MM-DD` string as on pg (see above).
  const pglite = new PGlite({ dataDir, parsers: { [pg.types.builtins.DATE]: (value: string) => value } });
  await pglite.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await pglite.query('select 1');
    },
    // Kysely closes PGlite only if it ever ran a query; an instance that was opened and never used must still be
    // closed, or it keeps the process alive and leaves its data directory unflushed.
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
};
