import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { columnTypes, pgliteParsers } from './column-types.js';
import { makeConnectionErrors, observePool, type ConnectionErrorListener, type ConnectionErrors } from './connection-failures.js';
import { queryByCallback } from './pg-query.js';

export type Db = Kysely<Database>;

export interface PostgresOptions {
  connectionString: string;
  /** Pool size per process. */
  max?: number;
  /** Fail fast when Postgres is unreachable instead of queueing requests (docs/reference/contract.md §6: 503 within seconds). */
  connectionTimeoutMillis?: number;
  statementTimeoutMillis?: number;
  applicationName?: string;
  /**
   * Statements named per connection, so that Postgres parses and plans each once (the default). Off behind a pooler
   * that cannot keep them, such as PgBouncer in transaction mode before 1.21 or without `max_prepared_statements`
   * (docs/operators/deployment.md, "Sizing").
   */
  namedStatements?: boolean;
}

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Cheap liveness probe for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Calls `onNotify` on every NOTIFY of `channel`, on a connection of its own that is opened again after a loss (and
   * then calls `onNotify` once, since notifications sent meanwhile are lost). Resolves to the function that stops it.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  /**
   * Calls `listener` with every error of a connection (docs/operators/alerts.md, GaragePostgresConnectionsLost):
   * the process logs and counts them. PGlite has no connection to lose.
   */
  onConnectionError(listener: ConnectionErrorListener): void;
  pool?: pg.Pool;
}

const RELISTEN_DELAY_MS = 1_000;

/** LISTEN on a dedicated pg client: a pooled connection would drop the subscription when released. */
const listenOn = async (
  config: pg.ClientConfig,
  channel: string,
  onNotify: () => void,
  errors: ConnectionErrors,
): Promise<() => Promise<void>> => {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client(config);
    let listening = false;
    // A connection lost after it listened: open another. One that fails before is retried by `reconnect`.
    const lost = () => {
      if (client !== next || !listening) return;
      client = null;
      // The connection is gone and its error reported: ending it only frees the socket.
      next.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void reconnect(), RELISTEN_DELAY_MS);
    };
    // Reported once per connection: pg may emit twice for one loss, and `lost` forgets the connection.
    next.on('error', (error) => {
      if (client === next && listening) errors.report(error, 'listen');
      lost();
    });
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === channel) onNotify();
    });
    client = next;
    await next.connect();
    await queryByCallback(next, `listen ${pg.escapeIdentifier(channel)}`);
    listening = true;
  };
  const reconnect = async (first = false) => {
    try {
      await connect();
      if (!first) onNotify();
    } catch {
      client?.end().catch(() => {});
      client = null;
      if (!stopped) retry = setTimeout(() => void reconnect(), RELISTEN_DELAY_MS);
    }
  };
  // Postgres down at start is no error here: the listener keeps trying, and the caller's poll covers the meantime.
  await reconnect(true);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = null;
    await current?.end().catch(() => {});
  };
};

export const connectPostgres = (options: PostgresOptions): DatabaseHandle => {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 2000,
    statement_timeout: options.statementTimeoutMillis ?? 10_000,
    idleTimeoutMillis: 30_000,
    application_name: options.applicationName ?? 'garage-api',
    types: columnTypes,
  });
  const errors = makeConnectionErrors();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: observePool(pool, errors, { namedStatements: options.namedStatements }), controlClient: pg.Client }) });
  return {
    db,
    kind: 'postgres',
    pool,
    ping: async () => {
      await pool.query('select 1');
    },
    listen: (channel, onNotify) =>
      listenOn(
        { connectionString: options.connectionString, connectionTimeoutMillis: options.connectionTimeoutMillis ?? 2000, application_name: `${options.applicationName ?? 'garage-api'}-listen` },
        channel,
        onNotify,
        errors,
      ),
    onConnectionError: (listener) => errors.listen(listener),
    // Kysely ends the pool only if it ever ran a query; connections opened by `ping` alone must be closed too.
    close: async () => {
      await db.destroy();
      if (!pool.ending && !pool.ended) await pool.end();
    },
  };
};

export interface PgliteOptions {
  /** A data directory dumped by PGlite's `dumpDataDir` to start from, instead of an empty cluster. */
  loadDataDir?: Blob;
}

/** Embedded Postgres (WASM) for the zero-configuration start: same SQL, same repositories, one process. */
export const connectPglite = async (dataDir: string | undefined, { loadDataDir }: PgliteOptions = {}): Promise<DatabaseHandle> => {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite({ dataDir, loadDataDir, parsers: pgliteParsers });
  await pglite.waitReady;
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await pglite.query('select 1');
    },
    // In the process: no connection to lose, nothing to report.
    onConnectionError: () => undefined,
    listen: async (channel, onNotify) => {
      const unsubscribe = await pglite.listen(channel, () => onNotify());
      return async () => {
        if (!pglite.closed) await unsubscribe();
      };
    },
    // Kysely closes PGlite only if it ever ran a query; an instance that was opened and never used must still be
    // closed, or it keeps the process alive and leaves its data directory unflushed.
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
};
