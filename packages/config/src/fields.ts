import { parseAllowedNetworks, parseEncryptionKey, parseRetrySchedule, type EncryptionKey, type RetrySchedule } from '@garage/domain';
import { Type } from 'typebox';
import { ConfigError } from './config-error.js';

/**
 * The variables several processes read (docs/reference/contract.md §6), declared once. Each schema's `description` completes the
 * sentence "VARIABLE must be …" of the error that names a bad value.
 */
export const sharedFields = {
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'a postgres:// URL' })),
  PGLITE_DIR: Type.String({ minLength: 1, default: '.data/pglite', description: 'a directory path' }),
  ENCRYPTION_KEY: Type.Optional(Type.String({ minLength: 1, description: 'the base64 encoding of 32 bytes' })),
  ENCRYPTION_KEY_PREVIOUS: Type.Optional(
    Type.String({ minLength: 1, description: 'a comma-separated list of base64 encodings of 32 bytes' }),
  ),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    default: 'info',
    description: 'one of fatal, error, warn, info, debug, trace, silent',
  }),
  WEBHOOK_RETRY_SCHEDULE: Type.Optional(
    Type.String({ minLength: 1, description: 'a comma-separated list of durations such as 5s,5m,30m,2h' }),
  ),
  WEBHOOK_ALLOWED_NETWORKS: Type.Optional(
    Type.String({ description: 'a comma-separated list of CIDR ranges such as 127.0.0.0/8,10.20.0.0/16' }),
  ),
  DATABASE_NAMED_STATEMENTS: Type.Enum(['on', 'off'], { default: 'on', description: 'on or off' }),
};

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

const KEY_FORMAT = 'must be the base64 encoding of exactly 32 bytes (e.g. `openssl rand -base64 32`)';

/** The active key; the format is the domain's (`parseEncryptionKey`), the message names the variable only. */
export const encryptionKeyOf = (text: string): EncryptionKey => {
  try {
    return parseEncryptionKey(text, 'ENCRYPTION_KEY');
  } catch {
    throw new ConfigError('ENCRYPTION_KEY', KEY_FORMAT);
  }
};

/** Former keys, comma-separated, decrypt-only; a bad one is named by its position, never by its value. */
export const previousKeysOf = (text: string | undefined): EncryptionKey[] =>
  (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part, i) => {
      try {
        return parseEncryptionKey(part, 'ENCRYPTION_KEY_PREVIOUS');
      } catch {
        throw new ConfigError('ENCRYPTION_KEY_PREVIOUS', `entry #${i + 1} must be the base64 encoding of exactly 32 bytes`);
      }
    });

/** The retry schedule's rule lives in the domain; this only names the variable. */
export const retryScheduleOf = (text: string | undefined): RetrySchedule => {
  try {
    return parseRetrySchedule(text);
  } catch (err) {
    // The domain's message names the entry it could not read.
    throw new ConfigError('WEBHOOK_RETRY_SCHEDULE', (err as Error).message.replace(/^WEBHOOK_RETRY_SCHEDULE /, ''));
  }
};

/** Internal webhook destinations an operator allows; the rule (what stays refused whatever) is the domain's. */
export const allowedNetworksOf = (text: string | undefined): string[] => {
  try {
    return parseAllowedNetworks(text);
  } catch (err) {
    throw new ConfigError('WEBHOOK_ALLOWED_NETWORKS', `must be a comma-separated list of CIDR ranges: ${(err as Error).message}`);
  }
};
