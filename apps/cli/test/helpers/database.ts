import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@garage/postgres/testing';
import type { Test } from 'tap';
import type { CliEnv } from './cli.js';

export interface CliDatabase {
  env: CliEnv;
  /** Raw SQL against the database the CLI writes to, to check what is (not) stored. */
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
}

/** A fresh migrated Postgres database (fails, never skips, without TEST_DATABASE_URL) and the CLI env pointing at it. */
export const cliDatabase = async (t: Test): Promise<CliDatabase> => {
  const db: TestDatabase = await createTestDatabase('cli');
  t.teardown(() => db.drop());
  const pool = db.handle.pool;
  if (!pool) throw new Error('createTestDatabase returned a handle without a pool');
  return {
    env: { DATABASE_URL: db.url, ENCRYPTION_KEY: randomBytes(32).toString('base64') },
    query: async <R>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as R[],
  };
};
