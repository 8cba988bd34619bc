import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
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
import * as m0015 from './0015-sandboxes.js';
import * as m0019 from './0019-request-log-and-portal.js';

/** Migrations are listed in code (not read from a folder) so that the built package carries them. */
const migrations: Record<string, Migration> = {
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
  '0015-sandboxes': m0015,
  '0019-request-log-and-portal': m0019,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies pending migrations; returns the names applied now. Throws on the first failure. */
export const migrateToLatest = async (db: Kysely<any>): Promise<string[]> => {
  const migrator = new Migrator({ db, provider });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
};

/**
 * Names the schema the migrations build: their names and code, hashed. A copy of a database migrated to this
 * fingerprint (a test template) is the same schema as a fresh migration, until a migration is added or edited.
 */
export const migrationsFingerprint = (): string => {
  const hash = createHash('sha256');
  for (const [name, migration] of Object.entries(migrations)) hash.update(`${name}\n${String(migration.up)}\n`);
  return hash.digest('hex').slice(0, 16);
};
