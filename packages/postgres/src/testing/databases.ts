import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PGliteDialect } from 'kysely';
import pg from 'pg';
import { connectPglite, connectPostgres, migrateToLatest, migrationsFingerprint, type Database, type DatabaseHandle } from '../index.js';
import { queryByCallback } from '../pg-query.js';

/** The server tests create their databases on: `TEST_DATABASE_URL`, or a local Postgres on its default port. */
export const testDatabaseUrl = (): string => process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  handle: DatabaseHandle;
  /** Closes the handle and drops the database. */
  drop(): Promise<void>;
}

/** Connects to the test server, or fails naming the service and the variable that points at it. */
const connectAdmin = async (base: string): Promise<pg.Client> => {
  const client = new pg.Client({ connectionString: base, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    const shown = new URL(base);
    shown.password = '';
    throw new Error(
      `Postgres does not answer at ${shown.toString()} (${(error as Error).message}): these tests need a real ` +
        'Postgres; start one there or set TEST_DATABASE_URL to one that runs',
    );
  }
  return client;
};

const withAdmin = async <T>(base: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = await connectAdmin(base);
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

const databaseUrl = (base: string, name: string): string => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * Runs a statement that needs the template (or the scratch database) to have no session, retrying while the session
 * just closed has not yet left the server: Postgres ends a backend shortly after its client disconnects.
 */
const whenUnused = async (admin: pg.Client, statement: string): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      await queryByCallback(admin, statement);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
};

/** Arbitrary, fixed: the advisory lock under which one test process builds the template while the others wait. */
const TEMPLATE_LOCK = 736_451_902;

/**
 * The migrated template every test database is copied from, named by the migrations' fingerprint so that a new or
 * edited migration gets a template of its own. Built once per server under an advisory lock (parallel test files
 * wait rather than race), into a scratch name renamed at the end, so that a build cut short leaves no half-migrated
 * template behind. Copying a template is a file copy, many times faster than running the migrations again.
 */
const ensureTemplate = async (base: string): Promise<string> => {
  const template = `garage_template_${await migrationsFingerprint()}`;
  return withAdmin(base, async (admin) => {
    const exists = async () => ((await queryByCallback(admin, 'select 1 from pg_database where datname = $1', [template])).rowCount ?? 0) > 0;
    if (await exists()) return template;
    await queryByCallback(admin, 'select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      if (await exists()) return template;
      const scratch = `${template}_${randomBytes(4).toString('hex')}`;
      await queryByCallback(admin, `create database "${scratch}"`);
      const handle = connectPostgres({ connectionString: databaseUrl(base, scratch), max: 1 });
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
      await whenUnused(admin, `alter database "${scratch}" rename to "${template}"`);
      return template;
    } finally {
      await queryByCallback(admin, 'select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
};

/**
 * A fresh, migrated database on the server named by `TEST_DATABASE_URL` (default: a local Postgres), copied from the
 * migrated template, so that test files run in parallel and a rerun starts clean. Throws (never skips) when the
 * server does not answer.
 */
export const createTestDatabase = async (prefix = 't'): Promise<TestDatabase> => {
  const base = testDatabaseUrl();
  const template = await ensureTemplate(base);
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  await withAdmin(base, (admin) => whenUnused(admin, `create database "${name}" template "${template}"`));
  const url = databaseUrl(base, name);
  const handle = connectPostgres({ connectionString: url, max: 20 });
  return {
    url,
    handle,
    drop: async () => {
      await handle.close();
      await withAdmin(base, (admin) => queryByCallback(admin, `drop database if exists "${name}" with (force)`));
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

/** A fresh PGlite cluster, migrated, as PGlite dumps a data directory. */
const buildPgliteDump = async (): Promise<Blob> => {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite();
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  await migrateToLatest(db);
  const dump = await pglite.dumpDataDir('none');
  await db.destroy();
  if (!pglite.closed) await pglite.close();
  return dump;
};

/**
 * The migrated PGlite cluster every in-memory test database starts from, dumped to a file named by the migrations'
 * fingerprint in the system's temporary directory: PGlite's initdb takes seconds of CPU, loading a dump about one.
 * The first test process to need it writes it (under a unique name, then renamed, so that a reader never sees half a
 * file); a new or edited migration gets a file of its own.
 */
let pgliteTemplate: Promise<Blob> | null = null;
const migratedPgliteDump = (): Promise<Blob> =>
  (pgliteTemplate ??= (async () => {
    const file = join(tmpdir(), `garage-pglite-${await migrationsFingerprint()}.tar`);
    try {
      return new Blob([await readFile(file)]);
    } catch {
      const fresh = await buildPgliteDump();
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await writeFile(partial, Buffer.from(await fresh.arrayBuffer()));
      await rename(partial, file);
      return fresh;
    }
  })());

/** Every database the adapter runs on: a suite run once per backend proves it behaves the same on each. */
export const backends: Backend[] = [
  { name: 'postgres', open: () => createTestDatabase('pgtest') },
  {
    name: 'pglite',
    open: async () => {
      const handle = await connectPglite(undefined, { loadDataDir: await migratedPgliteDump() });
      return { handle, drop: () => handle.close() };
    },
  },
];
