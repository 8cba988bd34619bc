import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { isStaleStatement, makeStatementNames, queryByCallback } from './pg-query.js';

/**
 * A query that failed because its connection could not be had or was lost, not because the server refused it (a
 * refusal carries a SQLSTATE). pg reports these failures as plain errors, so they are recognised by where they
 * happen (opening a connection, or a query on a connection that has emitted `error`), never by their message.
 */
export class ConnectionFailure extends Error {
  constructor(cause: unknown) {
    super('The database connection failed', { cause });
    this.name = 'ConnectionFailure';
  }
}

/**
 * Where a connection error was seen: `idle`, a pooled connection not in use (pg-pool discards it); `in_use`, a
 * connection a query or transaction holds (the failure also reaches that query); `listen`, the connection that
 * LISTENs for notifications (opened again).
 */
export type ConnectionErrorSource = 'idle' | 'in_use' | 'listen';

export type ConnectionErrorListener = (error: Error, source: ConnectionErrorSource) => void;

export interface ConnectionErrors {
  report(error: Error, source: ConnectionErrorSource): void;
  /** Calls `listener` with every connection error from now on (the process's log and metrics). */
  listen(listener: ConnectionErrorListener): void;
}

/**
 * The connection errors of one database handle, passed to whoever listens. Until someone does, they are written as
 * process warnings (stderr), so that none goes unseen.
 */
export const makeConnectionErrors = (): ConnectionErrors => {
  const listeners: ConnectionErrorListener[] = [];
  return {
    report(error, source) {
      if (listeners.length === 0) process.emitWarning(error, { type: 'DatabaseConnectionError', detail: source });
      for (const listener of listeners) listener(error, source);
    },
    listen(listener) {
      listeners.push(listener);
    },
  };
};

/** The statements Kysely opens and ends a transaction with (a savepoint's `rollback to` ends none). */
const TRANSACTION_BEGINS = /^(begin|start transaction)\b/i;
const TRANSACTION_ENDS = /^(commit|rollback)$/i;

/**
 * One connection's statements, each named from its second run (`makeStatementNames`). A named statement that went
 * stale (`isStaleStatement`: a migration of the next release added a column it reads) makes the connection forget
 * every name, so that each statement is parsed again; outside a transaction the failed one runs again at once,
 * inside one the error ends the transaction, and `inTransaction` runs it again (transactions.ts).
 */
const runNamed = (client: pg.ClientBase) => {
  const names = makeStatementNames();
  let transactionOpen = false;
  return (text: string, parameters?: readonly unknown[]): Promise<pg.QueryResult> => {
    if (TRANSACTION_BEGINS.test(text)) transactionOpen = true;
    else if (TRANSACTION_ENDS.test(text)) transactionOpen = false;
    const name = names.nameOf(text);
    if (name === undefined) return queryByCallback(client, text, parameters);
    return queryByCallback(client, text, parameters, name).catch((error: unknown) => {
      if (!isStaleStatement(error)) throw error;
      names.forget();
      if (transactionOpen) throw error;
      return queryByCallback(client, text, parameters);
    });
  };
};

const hasSqlState = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' && /^[0-9A-Z]{5}$/.test((error as { code: string }).code);

/**
 * The pool as Kysely's `PostgresDialect` takes it (Kysely's documented `PostgresPool`), with connection failures
 * told apart: opening a connection that fails, and a query that fails without a SQLSTATE on a connection that has
 * emitted `error`, reject with a `ConnectionFailure`. Every lost connection is reported to `errors`, once: pg emits an
 * idle connection's error on the pool, and one in use on the connection itself, where nothing else listens (without a
 * listener the process would crash). With `namedStatements` (the default), each connection names its statements from
 * their second run (`runNamed`).
 */
export const observePool = (pool: pg.Pool, errors: ConnectionErrors, { namedStatements = true }: { namedStatements?: boolean } = {}): PostgresPool => {
  const inUse = new WeakSet<pg.PoolClient>();
  const lost = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => inUse.add(client));
  pool.on('release', (_err, client) => inUse.delete(client));
  pool.on('error', (error) => errors.report(error, 'idle'));
  // pg may emit twice for one loss (the server's notice that it ends the session, then the socket's end): a connection
  // is reported at its first error.
  pool.on('connect', (client) =>
    client.on('error', (error) => {
      if (lost.has(client)) return;
      lost.add(client);
      if (inUse.has(client)) errors.report(error, 'in_use');
    }),
  );

  const failed = (client: pg.PoolClient) => (error: unknown) => {
    throw lost.has(client) && !hasSqlState(error) ? new ConnectionFailure(error) : error;
  };
  // One wrapper per connection: Kysely keeps its state per client object.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (!wrapper) {
      const run = namedStatements ? runNamed(client) : (text: string, parameters?: readonly unknown[]) => queryByCallback(client, text, parameters);
      wrapper = {
        // A cursor (Kysely's streaming) is a submittable, answered by pg as it is.
        query: ((first: unknown, parameters?: readonly unknown[]) =>
          typeof first === 'string'
            ? run(first, parameters).catch(failed(client))
            : (client.query as (cursor: unknown) => unknown)(first)) as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy),
      };
      wrappers.set(client, wrapper);
    }
    return wrapper;
  };

  return {
    options: pool.options,
    connect: () =>
      pool.connect().then(wrap, (error: unknown) => {
        throw hasSqlState(error) ? error : new ConnectionFailure(error);
      }),
    end: () => pool.end(),
  };
};
