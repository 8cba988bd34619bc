import { createHash } from 'node:crypto';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
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
import * as m0013 from './0013-sql-rules-from-the-domain.js';

/**
 * A migration; one that applies the SQL rules (src/sql-rules) records the digest of what it applied.
 */
type MigrationModule = Migration & { sqlRulesDigest?: string };

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
  '0013-sql-rules-from-the-domain': m0013,
};

/** The digest of the SQL rules as the newest migration that applied them wrote them (docs/contributors/sql-rules.md). */
export const appliedSqlRulesDigest = (): string | undefined =>
  Object.values(migrations).findLast((m) => m.sqlRulesDigest !== undefined)?.sqlRulesDigest;

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies pending migrations; returns the names applied now. Throws on the first failure. */
export const migrateToLatest = async (db: Kysely<any>): Promise<string[]> => {
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
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
  return hash.digest('hex').slice(0, 16);
};

/**
 * Names the schema the migrations build: a copy of a database migrated to this fingerprint (a test template) is the
 * same schema as a fresh migration, until a statement that a migration sends is added or changed.
 */
export const migrationsFingerprint = (): Promise<string> => fingerprintOf(migrations);
