import type { EncryptionKey, RetentionSettings, RetrySchedule } from '@garage/domain';
import { Type } from 'typebox';
import { ConfigError } from './config-error.js';
import { allowedNetworksOf, encryptionKeyOf, previousKeysOf, retryScheduleOf, sharedFields, type LogLevel } from './fields.js';
import { readEnv, type Environment } from './read-env.js';
import { retentionFields, retentionOf } from './retention.js';

/** The dedicated webhook worker's environment (docs/reference/contract.md §6). */
const WorkerEnv = Type.Object({
  DATABASE_URL: sharedFields.DATABASE_URL,
  DATABASE_NAMED_STATEMENTS: sharedFields.DATABASE_NAMED_STATEMENTS,
  ENCRYPTION_KEY: sharedFields.ENCRYPTION_KEY,
  ENCRYPTION_KEY_PREVIOUS: sharedFields.ENCRYPTION_KEY_PREVIOUS,
  LOG_LEVEL: sharedFields.LOG_LEVEL,
  WEBHOOK_RETRY_SCHEDULE: sharedFields.WEBHOOK_RETRY_SCHEDULE,
  WEBHOOK_ALLOWED_NETWORKS: sharedFields.WEBHOOK_ALLOWED_NETWORKS,
  // Apart from the API's defaults, so that `pnpm start` and `pnpm worker` run side by side on one machine.
  PORT: Type.String({ pattern: '^\\d{1,5}$', default: '3001', description: 'an integer from 0 to 65535' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'a host name or IP address' }),
  METRICS_PORT: Type.String({ pattern: '^\\d{1,5}$', default: '9465', description: 'an integer from 0 to 65535' }),
  METRICS_HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'a host name or IP address' }),
  ...retentionFields,
});

export interface WorkerConfig {
  databaseUrl: string;
  databaseNamedStatements: boolean;
  /** The active key first, then former ones (the order `makeSecretBox` expects). */
  encryptionKeys: EncryptionKey[];
  schedule: RetrySchedule;
  /** CIDR ranges of otherwise refused webhook destinations to allow (docs/operators/security.md). */
  allowedNetworks: string[];
  logLevel: LogLevel;
  /** `/health/live` and `/health/ready`. */
  port: number;
  host: string;
  /** `/metrics`, on a listener of its own. */
  metricsPort: number;
  metricsHost: string;
  /** How long the tables that grow with time keep their rows (docs/operators/retention.md). */
  retention: RetentionSettings;
}

/**
 * Parses the worker's environment once at start. A dedicated worker needs a shared Postgres: the embedded database
 * belongs to the one API process that opened it, which then delivers webhooks itself.
 */
export const loadWorkerConfig = (env: Environment = process.env): WorkerConfig => {
  const parsed = readEnv(WorkerEnv, env);
  if (parsed.DATABASE_URL === undefined) {
    throw new ConfigError(
      'DATABASE_URL',
      'must be a postgres:// URL: the worker shares the API database (with the embedded database, the API delivers webhooks itself)',
    );
  }
  if (parsed.ENCRYPTION_KEY === undefined) {
    throw new ConfigError('ENCRYPTION_KEY', 'is required: the API key that encrypts webhook secrets (base64 of 32 bytes)');
  }
  return {
    databaseUrl: parsed.DATABASE_URL,
    databaseNamedStatements: parsed.DATABASE_NAMED_STATEMENTS === 'on',
    encryptionKeys: [encryptionKeyOf(parsed.ENCRYPTION_KEY), ...previousKeysOf(parsed.ENCRYPTION_KEY_PREVIOUS)],
    schedule: retryScheduleOf(parsed.WEBHOOK_RETRY_SCHEDULE),
    allowedNetworks: allowedNetworksOf(parsed.WEBHOOK_ALLOWED_NETWORKS),
    logLevel: parsed.LOG_LEVEL,
    port: Number(parsed.PORT),
    host: parsed.HOST,
    metricsPort: Number(parsed.METRICS_PORT),
    metricsHost: parsed.METRICS_HOST,
    retention: retentionOf(parsed),
  };
};
