import type { EncryptionKey, RetrySchedule } from '@garage/domain';
import { Type } from 'typebox';
import { ConfigError } from './config-error.js';
import { encryptionKeyOf, previousKeysOf, retryScheduleOf, sharedFields, type LogLevel } from './fields.js';
import { readEnv, type Environment } from './read-env.js';

/** The dedicated webhook worker's environment (CONTRACT.md §6). */
const WorkerEnv = Type.Object({
  DATABASE_URL: sharedFields.DATABASE_URL,
  ENCRYPTION_KEY: sharedFields.ENCRYPTION_KEY,
  ENCRYPTION_KEY_PREVIOUS: sharedFields.ENCRYPTION_KEY_PREVIOUS,
  LOG_LEVEL: sharedFields.LOG_LEVEL,
  WEBHOOK_RETRY_SCHEDULE: sharedFields.WEBHOOK_RETRY_SCHEDULE,
});

export interface WorkerConfig {
  databaseUrl: string;
  /** The active key first, then former ones (the order `makeSecretBox` expects). */
  encryptionKeys: EncryptionKey[];
  schedule: RetrySchedule;
  logLevel: LogLevel;
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
    encryptionKeys: [encryptionKeyOf(parsed.ENCRYPTION_KEY), ...previousKeysOf(parsed.ENCRYPTION_KEY_PREVIOUS)],
    schedule: retryScheduleOf(parsed.WEBHOOK_RETRY_SCHEDULE),
    logLevel: parsed.LOG_LEVEL,
  };
};
