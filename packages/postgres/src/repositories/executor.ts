import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../schema.js';

/** What every repository runs on: the pool, or the transaction of a unit of work. */
export type Executor = Kysely<Database> | Transaction<Database>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids reach the adapter from URLs and bodies; a malformed one is simply not found, never a Postgres 22P02. */
export const isUuid = (value: string): boolean => UUID.test(value);

/** bigint, numeric and count() arrive as strings on pg and as numbers on PGlite. */
export const toNumber = (value: string | number | bigint): number => Number(value);

/** The database clock at millisecond precision, so that keyset cursors built from it compare exactly. */
export const nowMs = sql<Date>`date_trunc('milliseconds', now())`;

/**
 * Runs multi-statement writes atomically: inside the caller's transaction when there is one, else in a new one,
 * so that a repository bound to the pool keeps the same guarantees (and its transaction-scoped locks hold).
 */
export const inTransaction = <T>(db: Executor, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);

/** Serialises writers of one kind for one garage until the transaction ends (`scope` names the kind). */
export const lockForGarage = async (trx: Transaction<Database>, scope: string, garageId: string): Promise<void> => {
  await sql`select pg_advisory_xact_lock(hashtext(${`${scope}:${garageId}`}))`.execute(trx);
};

/** Splits large imports so that one statement stays far below Postgres's 65535 bind parameters. */
export const chunks = <T>(rows: T[], size = 500): T[][] =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size));

/** The last row for each key: an import naming a key twice must not touch one row twice in one statement. */
export const lastByKey = <T>(rows: T[], key: (row: T) => string): T[] => [
  ...new Map(rows.map((row) => [key(row), row])).values(),
];
