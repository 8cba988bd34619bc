import { connectPostgres } from '@garage/postgres';
import { pino } from 'pino';
import { loadWorkerConfig, type WorkerConfig } from '@garage/config';
import { makeWebhookDelivery } from '@garage/webhook-delivery';

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

const logger = pino({ level: config.logLevel, base: { service: 'garage-worker', pid: process.pid } });
const database = connectPostgres({ connectionString: config.databaseUrl, max: 4, applicationName: 'garage-worker' });
const loop = makeWebhookDelivery({
  db: database.db,
  encryptionKeys: config.encryptionKeys,
  schedule: config.schedule,
  logger,
}).start();
logger.info({ retryScheduleMs: config.schedule }, 'webhook worker started');

let stopping = false;
const shutdown = async (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: finishing the deliveries in flight');
  try {
    await loop.stop();
    await database.close();
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
