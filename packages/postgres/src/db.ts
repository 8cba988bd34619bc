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
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    pool,
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => db.destroy(),
  };
};

/** Embedded Postgres (WASM) for the zero-configuration start: same SQL, same repositories, one process. */
export const connectPglite = async (dataDir: string | undefined): Promise<DatabaseHandle> => {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = dataDir === undefined ? new PGlite() : new PGlite(dataDir);
  await pglite.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await pglite.query('select 1');
    },
    close: () => db.destroy(),
  };
};
