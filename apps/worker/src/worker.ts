import { makeDataRetention, startRetentionJob } from '@garage/composition';
import { connectPostgres, makeDeliveryQueue } from '@garage/postgres';
import { loadWorkerConfig, type WorkerConfig } from '@garage/config';
import {
  registerDatabaseConnectionMetrics,
  registerHealthMetrics,
  registerRetentionMetrics,
  startHealthServer,
  startMetricsServer,
  type HealthReport,
} from '@garage/observability';
import { stopTracing } from '@garage/observability/tracing';
import { API_VERSIONS } from '@garage/versions';
import { makeWebhookDelivery, registerWebhookMetrics } from '@garage/webhook-delivery';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { createWorkerLogger } from './logger.js';

/**
 * The dedicated webhook worker: delivers what the API processes wrote to the outbox. Run as many as needed; they
 * share the work through the database and never send the same attempt twice.
 */

let config: WorkerConfig;
try {
  config = loadWorkerConfig(process.env);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

const logger = createWorkerLogger(config.logLevel);
const database = connectPostgres({ connectionString: config.databaseUrl, max: 4, applicationName: 'garage-worker', namedStatements: config.databaseNamedStatements });
const registry = new Registry();
collectDefaultMetrics({ register: registry });
registerDatabaseConnectionMetrics(registry, logger).watch(database, 'primary');
const webhookMetrics = registerWebhookMetrics(registry, { backlog: () => makeDeliveryQueue(database.db).backlog() });
const loop = makeWebhookDelivery({
  db: database.db,
  listen: database.listen,
  encryptionKeys: config.encryptionKeys,
  schedule: config.schedule,
  versions: API_VERSIONS,
  allowedNetworks: config.allowedNetworks,
  logger,
  onDelivery: webhookMetrics.record,
}).start();
// The retention job runs here too (docs/operators/retention.md), so that a deployment whose API instances are busy or
// few still deletes what it no longer keeps; runs of several processes overlap harmlessly.
const retention = makeDataRetention(database.db, config.retention);
registerRetentionMetrics(registry, retention.measure);
const retentionJob = startRetentionJob({
  enforce: retention.enforce,
  onPurged: (purged) => logger.info({ purged }, 'rows past their retention deleted'),
  onError: (err) => logger.warn({ err }, 'could not enforce the retention; retrying at the next interval'),
});

let stopping = false;
/** Ready while Postgres answers within 1.5 s and the worker is not stopping; live while the process runs. */
const report = async (): Promise<HealthReport> => {
  const postgres = await Promise.race([
    database.ping().then(() => 'up' as const),
    new Promise<'down'>((resolve) => setTimeout(() => resolve('down'), 1500).unref()),
  ]).catch(() => 'down' as const);
  return { status: postgres === 'up' && !stopping ? 'ok' : 'unavailable', checks: { postgres, redis: 'absent', draining: stopping } };
};
const health = await startHealthServer({ host: config.host, port: config.port, report });
const healthMetrics = registerHealthMetrics(registry, report);
const metrics = await startMetricsServer({ registry, host: config.metricsHost, port: config.metricsPort });
logger.info({ retryScheduleMs: config.schedule, health: health.address, metrics: metrics.address }, 'webhook worker started');

const shutdown = async (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: finishing the deliveries in flight');
  try {
    await Promise.all([loop.stop(), retentionJob.stop()]);
    healthMetrics.stop();
    await Promise.all([health.close(), metrics.close()]);
    await database.close();
    // The spans of the last deliveries, still buffered, are sent before the process ends.
    await stopTracing();
    logger.info('webhook worker stopped');
    process.exit(0);
  } catch (err) {
    logger.fatal({ err }, 'webhook worker failed to stop cleanly');
    process.exit(1);
  }
};
process.once('SIGTERM', (signal) => void shutdown(signal));
process.once('SIGINT', (signal) => void shutdown(signal));
process.on('unhandledRejection', (err) => {
  logger.fatal({ err }, 'unhandled rejection');
  process.exit(1);
});
