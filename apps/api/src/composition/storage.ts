import { connectPostgres, migrateToLatest, type DatabaseHandle } from '@garage/postgres';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '@garage/config';
import { openStorage, type Storage } from '@garage/composition';
import { registerDatabaseConnectionMetrics, type DatabaseConnectionMetrics } from '@garage/observability';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database named by the configuration (embedded PGlite when there is none) and the encryption keys. */
    storage: Storage;
    /** Where list, item and availability GETs read: the replica of DATABASE_READ_URL, or the primary. */
    reads: DatabaseHandle;
  }
}

/**
 * The read replica: lists, items and availability read from it, so that they scale apart from the primary. Its
 * readiness is not checked: a lagging or absent replica does not make the primary unable to serve writes, and its
 * queries fail as 503 on their own.
 */
const openReplica = (app: FastifyInstance, config: Config, url: string, connections: DatabaseConnectionMetrics): DatabaseHandle => {
  const replica = connectPostgres({
    connectionString: url,
    max: config.databasePoolMax,
    statementTimeoutMillis: config.databaseStatementTimeoutMs,
    applicationName: 'garage-api-reads',
    namedStatements: config.databaseNamedStatements,
  });
  connections.watch(replica, 'replica');
  app.addHook('onClose', () => replica.close());
  return replica;
};

/**
 * Opens the database, migrates it when configured to, and closes it when the app closes, after in-flight requests
 * (hooks run in reverse order of registration, so everything registered later stops before the database does).
 */
export default fp(
  async (app: FastifyInstance, { config }: { config: Config }) => {
    const storage = await openStorage({
      databaseUrl: config.databaseUrl ?? undefined,
      pgliteDir: config.pgliteDir,
      encryptionKey: config.encryptionKey ?? undefined,
      previousEncryptionKeys: config.previousEncryptionKeys,
      logger: { warn: (msg) => app.log.warn(msg) },
      pool: { max: config.databasePoolMax, statementTimeoutMillis: config.databaseStatementTimeoutMs, namedStatements: config.databaseNamedStatements },
    });
    app.addHook('onClose', () => storage.handle.close());
    const connections = registerDatabaseConnectionMetrics(app.metrics.registry, app.log);
    connections.watch(storage.handle, 'primary');
    if (storage.handle.pool) app.metrics.observePool(storage.handle.pool);
    app.readiness.add('postgres', () => storage.handle.ping());

    if (config.migrateOnStart) {
      const migrated = await migrateToLatest(storage.handle.db);
      if (migrated.length > 0) app.log.info({ migrated }, 'database migrated');
    }
    app.decorate('storage', storage);
    app.decorate('reads', config.databaseReadUrl ? openReplica(app, config, config.databaseReadUrl, connections) : storage.handle);
  },
  { name: 'storage', dependencies: ['readiness', 'metrics'] },
);
