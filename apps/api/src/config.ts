import { isIP } from 'node:net';
import { parseRetrySchedule } from '@garage/domain';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The process environment, parsed once at start (CONTRACT.md §6). Every value is a string in the environment; the
 * schema states what each must look like, and `loadConfig` turns the strings into typed settings. A bad value stops
 * the process with a message naming the variable, and never echoes a secret.
 */
const EnvSchema = Type.Object({
  PORT: Type.String({ pattern: '^\\d{1,5}$', default: '3000', description: 'an integer from 0 to 65535' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'a host name or IP address' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'a postgres:// URL' })),
  PGLITE_DIR: Type.String({ minLength: 1, default: '.data/pglite', description: 'a directory path' }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'a redis:// or rediss:// URL' })),
  ENCRYPTION_KEY: Type.Optional(Type.String({ minLength: 1, description: 'the base64 encoding of 32 bytes' })),
  ENCRYPTION_KEY_PREVIOUS: Type.Optional(
    Type.String({ minLength: 1, description: 'a comma-separated list of base64 encodings of 32 bytes' }),
  ),
  TRUST_PROXY: Type.Optional(
    Type.String({ minLength: 1, description: '`true`, `false`, a hop count or a comma-separated list of IPs/CIDRs' }),
  ),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    default: 'info',
    description: 'one of fatal, error, warn, info, debug, trace, silent',
  }),
  WEBHOOK_RETRY_SCHEDULE: Type.Optional(
    Type.String({ minLength: 1, description: 'a comma-separated list of durations such as 5s,5m,30m,2h' }),
  ),
  DELIVER_WEBHOOKS: Type.Enum(['true', 'false'], { default: 'true', description: 'true or false' }),
  MIGRATE_ON_START: Type.Enum(['true', 'false'], { default: 'true', description: 'true or false' }),
});

type Env = Static<typeof EnvSchema>;

export type LogLevel = Env['LOG_LEVEL'];
export type TrustProxy = boolean | number | string[];

export interface Config {
  port: number;
  host: string;
  /** Unset: embedded Postgres (PGlite) under `pgliteDir`, with demo data. */
  databaseUrl: string | null;
  pgliteDir: string;
  redisUrl: string | null;
  /** Base64 of 32 bytes; required with `databaseUrl`. Embedded mode generates and keeps its own when unset. */
  encryptionKey: string | null;
  /** Former keys, decrypt-only, kept while secrets written under them are re-encrypted (README: key rotation). */
  previousEncryptionKeys: string[];
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  /** Delays between webhook delivery attempts (CONTRACT.md §5). */
  webhookRetryScheduleMs: readonly number[];
  /** Deliver webhooks from this process (default), so one process is a complete system; off with dedicated workers. */
  deliverWebhooks: boolean;
  /** Apply pending migrations at start (default); off when a deployment runs `cli migrate` once before the API. */
  migrateOnStart: boolean;
}

/** A configuration problem, worded for the operator who reads it on stderr. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

/** The schedule's rule lives in the domain (the worker reads the same variable); this only names the variable. */
const parseSchedule = (text: string | undefined): readonly number[] => {
  try {
    return parseRetrySchedule(text);
  } catch {
    throw new ConfigError('WEBHOOK_RETRY_SCHEDULE', `must be a comma-separated list of durations such as 5s,5m,30m,2h (got "${text}")`);
  }
};

const isCidrOrIp = (value: string): boolean => {
  const [address, bits, extra] = value.split('/');
  if (!address || extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
};

const parseTrustProxy = (text: string | undefined): TrustProxy => {
  if (text === undefined || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  const list = text.split(',').map((s) => s.trim());
  if (list.every(isCidrOrIp)) return list;
  throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count or a comma-separated list of IP addresses or CIDR ranges (got "${text}")`);
};

const isEncryptionKey = (text: string): boolean => {
  const key = Buffer.from(text, 'base64');
  // Buffer.from skips characters outside the alphabet; the round trip catches a mistyped key.
  return key.length === 32 && key.toString('base64').replace(/=+$/, '') === text.replace(/=+$/, '');
};

const checkEncryptionKey = (text: string | undefined, databaseUrl: string | undefined): string | null => {
  if (text === undefined) {
    if (databaseUrl !== undefined) {
      throw new ConfigError('ENCRYPTION_KEY', 'is required when DATABASE_URL is set (base64 of 32 random bytes, e.g. `openssl rand -base64 32`)');
    }
    return null;
  }
  const trimmed = text.trim();
  if (!isEncryptionKey(trimmed)) {
    throw new ConfigError('ENCRYPTION_KEY', 'must be the base64 encoding of exactly 32 bytes (e.g. `openssl rand -base64 32`)');
  }
  return trimmed;
};

/** Former keys, comma-separated; each must be a valid key, and the message says which one (by position, never value). */
const checkPreviousKeys = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part, i) => {
      if (!isEncryptionKey(part)) {
        throw new ConfigError('ENCRYPTION_KEY_PREVIOUS', `entry #${i + 1} must be the base64 encoding of exactly 32 bytes`);
      }
      return part;
    });

const VARIABLES = Object.keys(EnvSchema.properties) as (keyof Env)[];

/** Parses the environment; throws a `ConfigError` naming the first bad variable. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  // Empty strings count as unset, as in most deployment tools.
  const raw: Record<string, string> = {};
  for (const name of VARIABLES) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const withDefaults = Value.Default(EnvSchema, raw);
  const [issue] = Value.Errors(EnvSchema, withDefaults);
  if (issue) {
    const variable = issue.instancePath.slice(1) as keyof Env;
    const schema = EnvSchema.properties[variable] as { description?: string } | undefined;
    const shown = variable.startsWith('ENCRYPTION_KEY') || variable === 'DATABASE_URL' || variable === 'REDIS_URL' ? '' : ` (got "${raw[variable]}")`;
    throw new ConfigError(variable, `must be ${schema?.description ?? 'valid'}${shown}`);
  }
  const parsed = withDefaults as Env;
  const port = Number(parsed.PORT);
  if (port > 65535) throw new ConfigError('PORT', `must be an integer from 0 to 65535 (got "${parsed.PORT}")`);
  return {
    port,
    host: parsed.HOST,
    databaseUrl: parsed.DATABASE_URL ?? null,
    pgliteDir: parsed.PGLITE_DIR,
    redisUrl: parsed.REDIS_URL ?? null,
    encryptionKey: checkEncryptionKey(parsed.ENCRYPTION_KEY, parsed.DATABASE_URL),
    previousEncryptionKeys: checkPreviousKeys(parsed.ENCRYPTION_KEY_PREVIOUS),
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    logLevel: parsed.LOG_LEVEL,
    webhookRetryScheduleMs: parseSchedule(parsed.WEBHOOK_RETRY_SCHEDULE),
    deliverWebhooks: parsed.DELIVER_WEBHOOKS === 'true',
    migrateOnStart: parsed.MIGRATE_ON_START === 'true',
  };
};
