import { isIP } from 'node:net';
import type { RetentionSettings } from '@garage/domain';
import { Type, type Static } from 'typebox';
import { ConfigError } from './config-error.js';
import { allowedNetworksOf, encryptionKeyOf, previousKeysOf, retryScheduleOf, sharedFields, type LogLevel } from './fields.js';
import { portalFields, publicUrlOf } from './portal.js';
import { readEnv, type Environment } from './read-env.js';
import { retentionFields, retentionOf } from './retention.js';

/** The API process's environment (docs/reference/contract.md §6). */
const ApiEnv = Type.Object({
  PORT: Type.String({ pattern: '^\\d{1,5}$', default: '3000', description: 'an integer from 0 to 65535' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'a host name or IP address' }),
  ...sharedFields,
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'a redis:// or rediss:// URL' })),
  REDIS_CLUSTER_NODES: Type.Optional(
    Type.String({ pattern: '^[^\\s:,]+:\\d{1,5}(,[^\\s:,]+:\\d{1,5})*$', description: 'a comma-separated list of host:port seed nodes' }),
  ),
  TRUST_PROXY: Type.Optional(
    Type.String({ minLength: 1, description: '`false`, a hop count or a comma-separated list of IPs/CIDRs' }),
  ),
  DELIVER_WEBHOOKS: Type.Enum(['true', 'false'], { default: 'true', description: 'true or false' }),
  MIGRATE_ON_START: Type.Enum(['true', 'false'], { default: 'true', description: 'true or false' }),
  DATABASE_READ_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'a postgres:// URL (a read replica)' })),
  DATABASE_POOL_MAX: Type.String({ pattern: '^[1-9]\\d{0,3}$', default: '10', description: 'an integer from 1 to 9999' }),
  DATABASE_STATEMENT_TIMEOUT_MS: Type.String({ pattern: '^[1-9]\\d{0,7}$', default: '5000', description: 'a number of milliseconds from 1 to 99999999' }),
  METRICS_PORT: Type.String({ pattern: '^\\d{1,5}$', default: '9464', description: 'an integer from 0 to 65535' }),
  METRICS_HOST: Type.String({ minLength: 1, default: '127.0.0.1', description: 'a host name or IP address' }),
  SHUTDOWN_DELAY_MS: Type.String({ pattern: '^\\d{1,7}$', default: '0', description: 'a number of milliseconds from 0 to 9999999' }),
  PUBLIC_CACHE_MAX_AGE_SECONDS: Type.Optional(Type.String({ pattern: '^\\d{1,5}$', description: 'a number of seconds from 0 to 86400' })),
  NODE_ENV: Type.Optional(Type.String({ minLength: 1, description: 'a Node environment name such as production' })),
  EMBEDDED: Type.Enum(['true', 'false'], { default: 'false', description: 'true or false' }),
  ...retentionFields,
  ...portalFields,
});

/** A day: past that, a garage's website would show a sold vehicle for longer than anyone would want. */
const MAX_PUBLIC_CACHE_MAX_AGE_SECONDS = 86_400;

export type TrustProxy = false | number | string[];

export interface Config {
  port: number;
  host: string;
  /** Unset: embedded Postgres (PGlite) under `pgliteDir`, with demo data. */
  databaseUrl: string | null;
  pgliteDir: string;
  redisUrl: string | null;
  /** Seed nodes of a Redis Cluster, instead of REDIS_URL. */
  redisClusterNodes: { host: string; port: number }[] | null;
  /** Base64 of 32 bytes; required with `databaseUrl`. Embedded mode generates and keeps its own when unset. */
  encryptionKey: string | null;
  /** Former keys, decrypt-only, kept while secrets written under them are re-encrypted (README: key rotation). */
  previousEncryptionKeys: string[];
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  /** Delays between webhook delivery attempts (docs/reference/contract.md §5). */
  webhookRetryScheduleMs: readonly number[];
  /** CIDR ranges of otherwise refused webhook destinations to allow (docs/operators/security.md). */
  webhookAllowedNetworks: string[];
  /** Deliver webhooks from this process (default), so one process is a complete system; off with dedicated workers. */
  deliverWebhooks: boolean;
  /** Apply pending migrations at start (default); off when a deployment runs `cli migrate` once before the API. */
  migrateOnStart: boolean;
  /** A read replica: list, item and availability GETs read from it; everything else uses `databaseUrl`. */
  databaseReadUrl: string | null;
  /** Postgres connections of this process at most (per database: the primary, and the replica if any). */
  databasePoolMax: number;
  /** Statements named per connection (`DATABASE_NAMED_STATEMENTS`): off behind a pooler that cannot keep them. */
  databaseNamedStatements: boolean;
  /** A statement running longer is cancelled, and its request answered 503 UNAVAILABLE rather than left hanging. */
  databaseStatementTimeoutMs: number;
  /** On SIGTERM, how long readiness answers 503 while requests are still served, before the listener closes. */
  shutdownDelayMs: number;
  /**
   * How long a shared cache (a CDN, a reverse proxy) may serve a public fleet read without asking again: the
   * `max-age` of `Cache-Control: public` (docs/operators/showcase-cache.md). Null, the default: public reads are
   * `private, no-cache` like every other read, as the contract has it, until the operator puts a cache in front.
   */
  publicCacheMaxAgeSeconds: number | null;
  /** Where Prometheus scrapes `/metrics`: a listener of its own, never the public port (0: any free port). */
  metricsPort: number;
  metricsHost: string;
  /** How long the tables that grow with time keep their rows (docs/operators/retention.md). */
  retention: RetentionSettings;
  /** The base URL connectors reach this service at: portal links are printed with it. */
  publicUrl: string;
  /** Portal cookies without `Secure`, for a portal served over plain HTTP on a developer's machine. */
  portalInsecureCookies: boolean;
  /** Record key-authenticated requests for their integration (docs/reference/contract.md §10); on unless turned off. */
  requestLog: boolean;
}

const isCidrOrIp = (value: string): boolean => {
  const [address, bits, extra] = value.split('/');
  if (!address || extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
};

const trustProxyOf = (text: string | undefined): TrustProxy => {
  if (text === undefined || text === 'false') return false;
  if (text === 'true') {
    // Trusting every hop lets any client write its own address in X-Forwarded-For, and so escape every per-IP limit
    // or throttle someone else's address.
    throw new ConfigError(
      'TRUST_PROXY',
      'must not be true: trusting every hop lets any client choose its address; give the number of proxies in front of the service (e.g. 1) or their CIDR ranges',
    );
  }
  if (/^\d+$/.test(text)) return Number(text);
  const list = text.split(',').map((s) => s.trim());
  if (list.every(isCidrOrIp)) return list;
  throw new ConfigError('TRUST_PROXY', `must be false, a hop count or a comma-separated list of IP addresses or CIDR ranges (got "${text}")`);
};

const activeKeyOf = (env: Static<typeof ApiEnv>): string | null => {
  if (env.ENCRYPTION_KEY === undefined) {
    if (env.DATABASE_URL !== undefined) {
      throw new ConfigError('ENCRYPTION_KEY', 'is required when DATABASE_URL is set (base64 of 32 random bytes, e.g. `openssl rand -base64 32`)');
    }
    return null;
  }
  encryptionKeyOf(env.ENCRYPTION_KEY);
  return env.ENCRYPTION_KEY.trim();
};

/** Parses the API's environment once at start; throws a `ConfigError` naming the first bad variable. */
export const loadApiConfig = (env: Environment = process.env): Config => {
  const parsed = readEnv(ApiEnv, env);
  const port = Number(parsed.PORT);
  if (port > 65535) throw new ConfigError('PORT', `must be an integer from 0 to 65535 (got "${parsed.PORT}")`);
  const metricsPort = Number(parsed.METRICS_PORT);
  if (metricsPort > 65535) throw new ConfigError('METRICS_PORT', `must be an integer from 0 to 65535 (got "${parsed.METRICS_PORT}")`);
  if (parsed.NODE_ENV === 'production' && parsed.DATABASE_URL === undefined && parsed.EMBEDDED !== 'true') {
    throw new ConfigError(
      'DATABASE_URL',
      'is required when NODE_ENV is production: the embedded demo database is for development (set EMBEDDED=true to run it anyway)',
    );
  }
  if (parsed.DATABASE_READ_URL !== undefined && parsed.DATABASE_URL === undefined) {
    throw new ConfigError('DATABASE_READ_URL', 'needs DATABASE_URL: a replica reads what the primary wrote');
  }
  if (parsed.REDIS_URL !== undefined && parsed.REDIS_CLUSTER_NODES !== undefined) {
    throw new ConfigError('REDIS_CLUSTER_NODES', 'and REDIS_URL are exclusive: one Redis, or one Redis Cluster');
  }
  const publicCacheMaxAgeSeconds = parsed.PUBLIC_CACHE_MAX_AGE_SECONDS === undefined ? null : Number(parsed.PUBLIC_CACHE_MAX_AGE_SECONDS);
  if (publicCacheMaxAgeSeconds !== null && publicCacheMaxAgeSeconds > MAX_PUBLIC_CACHE_MAX_AGE_SECONDS) {
    throw new ConfigError(
      'PUBLIC_CACHE_MAX_AGE_SECONDS',
      `must be a number of seconds from 0 to ${MAX_PUBLIC_CACHE_MAX_AGE_SECONDS} (got "${parsed.PUBLIC_CACHE_MAX_AGE_SECONDS}")`,
    );
  }
  const encryptionKey = activeKeyOf(parsed);
  previousKeysOf(parsed.ENCRYPTION_KEY_PREVIOUS);
  return {
    port,
    host: parsed.HOST,
    databaseUrl: parsed.DATABASE_URL ?? null,
    pgliteDir: parsed.PGLITE_DIR,
    redisUrl: parsed.REDIS_URL ?? null,
    redisClusterNodes:
      parsed.REDIS_CLUSTER_NODES?.split(',').map((node) => {
        const at = node.lastIndexOf(':');
        return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
      }) ?? null,
    encryptionKey,
    previousEncryptionKeys: (parsed.ENCRYPTION_KEY_PREVIOUS ?? '').split(',').map((part) => part.trim()).filter(Boolean),
    trustProxy: trustProxyOf(parsed.TRUST_PROXY),
    logLevel: parsed.LOG_LEVEL,
    webhookRetryScheduleMs: retryScheduleOf(parsed.WEBHOOK_RETRY_SCHEDULE),
    webhookAllowedNetworks: allowedNetworksOf(parsed.WEBHOOK_ALLOWED_NETWORKS),
    deliverWebhooks: parsed.DELIVER_WEBHOOKS === 'true',
    migrateOnStart: parsed.MIGRATE_ON_START === 'true',
    databaseReadUrl: parsed.DATABASE_READ_URL ?? null,
    databasePoolMax: Number(parsed.DATABASE_POOL_MAX),
    databaseNamedStatements: parsed.DATABASE_NAMED_STATEMENTS === 'on',
    databaseStatementTimeoutMs: Number(parsed.DATABASE_STATEMENT_TIMEOUT_MS),
    shutdownDelayMs: Number(parsed.SHUTDOWN_DELAY_MS),
    publicCacheMaxAgeSeconds,
    metricsPort,
    metricsHost: parsed.METRICS_HOST,
    retention: retentionOf(parsed),
    publicUrl: publicUrlOf(parsed.PUBLIC_URL, parsed.PORT),
    portalInsecureCookies: parsed.PORTAL_INSECURE_COOKIES === 'true',
    requestLog: parsed.REQUEST_LOG === 'on',
  };
};
