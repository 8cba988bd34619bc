import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { buildConcurrentIndexes, type ConcurrentIndex } from './concurrent-indexes.js';
import { renderListItemsAgain } from '../list-items/render-again.js';
import * as m0001 from './0001-initial.js';
import * as m0002 from './0002-booking-and-idempotency.js';
import * as m0003 from './0003-list-versions.js';
import * as m0004 from './0004-appointment-lifecycle.js';
import * as m0005 from './0005-webhook-self-service.js';
import * as m0006 from './0006-booking-places-under-lock.js';
import * as m0007 from './0007-api-versions.js';
import * as m0008 from './0008-outbox-trace-context.js';
import * as m0009 from './0009-booking-days.js';
import * as m0010 from './0010-booking-writes-planned-once.js';
import * as m0011 from './0011-list-items.js';
import * as m0012 from './0012-list-items.js';
import * as m0013 from './0013-sql-rules-from-the-domain.js';
import * as m0015 from './0015-sandboxes.js';
import * as m0016 from './0016-data-over-time.js';
import * as m0019 from './0019-request-log-and-portal.js';
import * as m0020 from './0020-request-log-without-primary-key.js';
import * as m0021 from './0021-booking-in-one-statement.js';
import * as m0022 from './0022-request-log-in-chunks.js';
import * as m0023 from './0023-request-log-chunk-contents.js';

/**
 * A migration; one that applies the SQL rules (src/sql-rules) records the digest of what it applied.
 */
type MigrationModule = Migration & {
  sqlRulesDigest?: string;
  /** A migration generated from the list item shapes carries the trigger functions it installs. */
  FUNCTIONS?: Readonly<Record<string, string>>;
};

/** Migrations are listed in code (not read from a folder) so that the built package carries them. */
const migrations: Record<string, MigrationModule> = {
  '0001-initial': m0001,
  '0002-booking-and-idempotency': m0002,
  '0003-list-versions': m0003,
  '0004-appointment-lifecycle': m0004,
  '0005-webhook-self-service': m0005,
  '0006-booking-places-under-lock': m0006,
  '0007-api-versions': m0007,
  '0008-outbox-trace-context': m0008,
  '0009-booking-days': m0009,
  '0010-booking-writes-planned-once': m0010,
  '0011-list-items': m0011,
  '0012-list-items': m0012,
  '0013-sql-rules-from-the-domain': m0013,
  '0015-sandboxes': m0015,
  '0016-data-over-time': m0016,
  '0019-request-log-and-portal': m0019,
  '0020-request-log-without-primary-key': m0020,
  '0021-booking-in-one-statement': m0021,
  '0022-request-log-in-chunks': m0022,
  '0023-request-log-chunk-contents': m0023,
};

/** The digest of the SQL rules as the newest migration that applied them wrote them (docs/contributors/sql-rules.md). */
export const appliedSqlRulesDigest = (): string | undefined =>
  Object.values(migrations).findLast((m) => m.sqlRulesDigest !== undefined)?.sqlRulesDigest;

/** Indexes built concurrently once their migration has committed (see `buildConcurrentIndexes`). */
const concurrentIndexes: ConcurrentIndex[] = [...m0016.concurrentIndexes];

/**
 * How long a migration's statement waits for a lock before it fails (docs/contributors/migrations.md): while it
 * waits, every query behind it in the lock queue waits too, so a migration that cannot get its lock at once gives up
 * instead of stalling the traffic of the release still serving, and is tried again.
 */
export const MIGRATION_LOCK_TIMEOUT = '1s';
const LOCK_RETRIES = 5;
const LOCK_NOT_AVAILABLE = '55P03';

const withLockTimeout = (migration: Migration): Migration => ({
  ...migration,
  up: async (db) => {
    await sql`set local lock_timeout = ${sql.lit(MIGRATION_LOCK_TIMEOUT)}`.execute(db);
    await migration.up(db);
  },
});

const provider: MigrationProvider = {
  getMigrations: async () => Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, withLockTimeout(m)])),
};

/** The lists' trigger functions as the latest generated migration installs them (null before the first one). */
export const latestListItemFunctions = (): Readonly<Record<string, string>> | null =>
  Object.values(migrations).reduce<Readonly<Record<string, string>> | null>((latest, m) => m.FUNCTIONS ?? latest, null);

/**
 * Applies pending migrations, each in a transaction of its own (its locks are released at its commit, not held until
 * the last one), then builds the indexes they ask for concurrently and renders again the list rows a generated
 * migration queued (see `renderListItemsAgain`; running it again resumes); returns the names applied now. A migration that
 * could not get a lock within `MIGRATION_LOCK_TIMEOUT` is tried again after a pause; any other failure throws.
 */
export const migrateToLatest = async (db: Kysely<any>): Promise<string[]> => {
  const migrator = new Migrator({ db, provider });
  const applied: string[] = [];
  for (let retries = 0; ; ) {
    const { error, results = [] } = await migrator.migrateUp();
    applied.push(...results.filter((r) => r.status === 'Success').map((r) => r.migrationName));
    if (error) {
      if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE || retries >= LOCK_RETRIES) {
        throw error instanceof Error ? error : new Error(String(error));
      }
      retries += 1;
      await sleep(retries * 500);
      continue;
    }
    if (results.length === 0) break;
  }
  await buildConcurrentIndexes(db, concurrentIndexes);
  // Rows a generated list-item migration queued are rendered again in batches, outside the migrations' transactions.
  await renderListItemsAgain(db);
  return applied;
};

/**
 * Hashes the statements that `migrations` send, in order: each `up` runs against a Kysely that compiles its queries
 * and executes none (Kysely's `DummyDriver`; every query returns no rows). What a migration sends through helpers,
 * constants or generated SQL counts as much as its own text.
 */
export const fingerprintOf = async (list: Record<string, Migration>): Promise<string> => {
  const hash = createHash('sha256');
  const recorder = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') hash.update(`${event.query.sql}\n${JSON.stringify(event.query.parameters)}\n`);
    },
  });
  try {
    for (const [name, migration] of Object.entries(list)) {
      hash.update(`-- ${name}\n`);
      await migration.up(recorder);
    }
  } finally {
    await recorder.destroy();
  }
  hash.update(JSON.stringify(concurrentIndexes));
  return hash.digest('hex').slice(0, 16);
};

/**
 * Names the schema the migrations build: a copy of a database migrated to this fingerprint (a test template) is the
 * same schema as a fresh migration, until a statement that a migration sends is added or changed.
 */
export const migrationsFingerprint = (): Promise<string> => fingerprintOf(migrations);
