import { parseRetrySchedule, type EncryptionKey, type RetrySchedule } from '@garage/domain';
import { parseEncryptionKey } from '@garage/domain';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface WorkerConfig {
  databaseUrl: string;
  encryptionKeys: EncryptionKey[];
  schedule: RetrySchedule;
  logLevel: LogLevel;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/**
 * The worker's environment (CONTRACT.md §6), parsed once at start. A dedicated worker needs a shared Postgres: the
 * embedded database belongs to the one API process that opened it, which then delivers webhooks itself.
 */
export const loadWorkerConfig = (env: NodeJS.ProcessEnv = process.env): WorkerConfig => {
  // Empty strings count as unset, as for the API.
  const get = (name: string) => (env[name] === '' ? undefined : env[name]);
  const databaseUrl = get('DATABASE_URL');
  if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(
      'DATABASE_URL',
      'must be a postgres:// URL: the worker shares the API database (with the embedded database, the API delivers webhooks itself)',
    );
  }
  const encryptionKey = get('ENCRYPTION_KEY');
  if (!encryptionKey) {
    throw new ConfigError('ENCRYPTION_KEY', 'is required: the API key that encrypts webhook secrets (base64 of 32 bytes)');
  }
  let key: EncryptionKey;
  try {
    key = parseEncryptionKey(encryptionKey, 'ENCRYPTION_KEY');
  } catch {
    // The parser's own message is fine, but never risk echoing a key.
    throw new ConfigError('ENCRYPTION_KEY', 'must be the base64 encoding of exactly 32 bytes (e.g. `openssl rand -base64 32`)');
  }
  // Former keys decrypt secrets written before a rotation until `cli secrets reencrypt` has run (README).
  const previous = (get('ENCRYPTION_KEY_PREVIOUS') ?? '').split(',').map((part) => part.trim()).filter(Boolean);
  const previousKeys = previous.map((text, i) => {
    try {
      return parseEncryptionKey(text, 'ENCRYPTION_KEY_PREVIOUS');
    } catch {
      throw new ConfigError('ENCRYPTION_KEY_PREVIOUS', `entry #${i + 1} must be the base64 encoding of exactly 32 bytes`);
    }
  });
  let schedule: RetrySchedule;
  try {
    schedule = parseRetrySchedule(get('WEBHOOK_RETRY_SCHEDULE'));
  } catch (err) {
    throw new ConfigError('WEBHOOK_RETRY_SCHEDULE', (err as Error).message.replace(/^WEBHOOK_RETRY_SCHEDULE /, ''));
  }
  const logLevel = get('LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }
  return { databaseUrl, encryptionKeys: [key, ...previousKeys], schedule, logLevel: logLevel as LogLevel };
};
