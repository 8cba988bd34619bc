import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectPglite, connectPostgres, migrateToLatest, type DatabaseHandle } from '../index.js';

export interface TestDatabase {
  url: string;
  handle: DatabaseHandle;
  /** Closes the handle and drops the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database on the server named by `TEST_DATABASE_URL`, so that test files run in parallel and a
 * rerun starts clean. Throws (never skips) when the variable is missing or the server is down.
 */
export const createTestDatabase = async (prefix = 't'): Promise<TestDatabase> => {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set: these tests need a real Postgres (see README)');
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  const handle = connectPostgres({ connectionString: url.toString(), max: 20 });
  await migrateToLatest(handle.db);
  return {
    url: url.toString(),
    handle,
    drop: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: base });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
};

export interface OpenedDatabase {
  handle: DatabaseHandle;
  drop(): Promise<void>;
}

export interface Backend {
  name: 'postgres' | 'pglite';
  /** A fresh, migrated database of this kind. */
  open(): Promise<OpenedDatabase>;
}

/** Every database the adapter runs on: a suite run once per backend proves it behaves the same on each. */
export const backends: Backend[] = [
  { name: 'postgres', open: () => createTestDatabase('pgtest') },
  {
    name: 'pglite',
    open: async () => {
      const handle = await connectPglite(undefined);
      await migrateToLatest(handle.db);
      return { handle, drop: () => handle.close() };
    },
  },
];
