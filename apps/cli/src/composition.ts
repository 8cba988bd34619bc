import { makeDestinationPolicy, makeLocalTime, makeReencryptWebhookSecrets, makeSecretBox } from '@garage/domain';
import { makeWebhookSecretStore, migrateToLatest, toDomainError } from '@garage/postgres';
import { loadCliConfig, type CliConfig, type Environment } from '@garage/config';
import { CliError } from './errors.js';
import { makeAdminUseCases, openStorage, type AdminUseCases, type Storage } from '@garage/composition';

/** The CLI's composition root: the only module that knows the concrete adapters. */

/** The process environment: DATABASE_URL, PGLITE_DIR, ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS (see `loadCliConfig`). */
export type CliEnvironment = Environment;

const configOf = (env: CliEnvironment): CliConfig => {
  try {
    return loadCliConfig(env);
  } catch (err) {
    throw new CliError(`cannot open the database: ${(err as Error).message}`);
  }
};

const open = async (env: CliEnvironment, warn: (text: string) => void): Promise<Storage> => {
  // The same variables as the API, so that `pnpm cli` and `pnpm start` see the same database.
  const config = configOf(env);
  try {
    return await openStorage({
      databaseUrl: config.databaseUrl ?? undefined,
      pgliteDir: config.pgliteDir,
      encryptionKey: config.encryptionKey ?? undefined,
      previousEncryptionKeys: config.previousEncryptionKeys,
      logger: { warn: (message) => warn(`warning: ${message}\n`) },
      pool: { namedStatements: config.databaseNamedStatements },
    });
  } catch (err) {
    // Nothing is connected yet: what fails here is the configuration (a missing or malformed key, a bad directory).
    throw new CliError(`cannot open the database: ${(err as Error).message}`);
  }
};

const withStorage = async <T>(env: CliEnvironment, warn: (text: string) => void, work: (storage: Storage) => Promise<T>): Promise<T> => {
  const storage = await open(env, warn);
  try {
    return await work(storage);
  } catch (err) {
    // Use-cases already throw domain errors; this maps the migrator's too (an unreachable server → UNAVAILABLE).
    throw toDomainError(err);
  } finally {
    await storage.handle.close();
  }
};

/** Where connectors reach the API: the base of the portal links the CLI prints. */
export const publicUrl = (env: CliEnvironment): string => configOf(env).publicUrl;

/** Applies pending migrations and returns the names applied now. */
export const migrate = (env: CliEnvironment, warn: (text: string) => void): Promise<string[]> =>
  withStorage(env, warn, (storage) => migrateToLatest(storage.handle.db));

/** Opens the database, migrates it, runs `work` with the admin use-cases, closes. */
export const withAdmin = <T>(env: CliEnvironment, warn: (text: string) => void, work: (admin: AdminUseCases) => Promise<T>): Promise<T> =>
  withStorage(env, warn, async (storage) => {
    // Migrating first spares operators a separate step after an upgrade; it is a no-op when up to date.
    await migrateToLatest(storage.handle.db);
    // A webhook URL naming an address refused for deliveries is refused as it is configured, not at the first event.
    const destinations = makeDestinationPolicy(configOf(env).webhookAllowedNetworks);
    return work(makeAdminUseCases(storage.handle.db, storage.encryptionKeys, {
        destinations,
        localTime: makeLocalTime(),
        onStatisticsNotRefreshed: (err, tables) =>
          warn(`planner statistics of ${tables.join(', ')} not refreshed after the import (autovacuum will): ${err instanceof Error ? err.message : String(err)}`),
      }),
    );
  });

/**
 * Re-encrypts every webhook secret under ENCRYPTION_KEY, decrypting with ENCRYPTION_KEY_PREVIOUS (README: rotating
 * ENCRYPTION_KEY). It does not migrate: it runs against a deployed schema, between rolling restarts.
 */
export const reencryptWebhookSecrets = (env: CliEnvironment, warn: (text: string) => void): Promise<{ reencrypted: number }> =>
  withStorage(env, warn, (storage) =>
    makeReencryptWebhookSecrets({
      secrets: makeWebhookSecretStore(storage.handle.db),
      secretBox: makeSecretBox(storage.encryptionKeys),
    })(),
  );
