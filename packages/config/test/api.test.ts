import t, { type Test as Tap } from 'tap';
import { ConfigError, loadApiConfig as loadConfig } from '../src/index.js';

const KEY = Buffer.alloc(32, 7).toString('base64');

t.test('defaults', async (t) => {
  const config = loadConfig({});
  t.same(config, {
    port: 3000,
    host: '0.0.0.0',
    databaseUrl: null,
    pgliteDir: '.data/pglite',
    redisUrl: null,
    redisClusterNodes: null,
    encryptionKey: null,
    previousEncryptionKeys: [],
    trustProxy: false,
    logLevel: 'info',
    webhookRetryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
    webhookAllowedNetworks: [],
    deliverWebhooks: true,
    migrateOnStart: true,
    databaseReadUrl: null,
    databasePoolMax: 10,
    databaseNamedStatements: true,
    databaseStatementTimeoutMs: 5000,
    shutdownDelayMs: 0,
    publicCacheMaxAgeSeconds: null,
    metricsPort: 9464,
    metricsHost: '127.0.0.1',
    retention: { webhookEventDays: 30, webhookDeliveryDays: 30, sandboxDays: 90, requestLogDays: 7 },
    publicUrl: 'http://localhost:3000',
    portalInsecureCookies: false,
    requestLog: true,
  });
  t.same([loadConfig({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' }).metricsPort, loadConfig({ METRICS_HOST: '0.0.0.0' }).metricsHost], [0, '0.0.0.0']);
  t.throws(() => loadConfig({ METRICS_PORT: '70000' }), /METRICS_PORT must be an integer from 0 to 65535/);
});

t.test('retention settings: the events feed keeps its 30 days at least', async (t) => {
  t.same(loadConfig({ WEBHOOK_EVENT_RETENTION_DAYS: '90', WEBHOOK_DELIVERY_RETENTION_DAYS: '7' }).retention, {
    webhookEventDays: 90,
    webhookDeliveryDays: 7,
    sandboxDays: 90,
    requestLogDays: 7,
  });
  t.throws(() => loadConfig({ WEBHOOK_EVENT_RETENTION_DAYS: '29' }), /WEBHOOK_EVENT_RETENTION_DAYS must be a number of days from 30 to 99999: the events feed keeps 30 days \(got "29"\)/);
  rejects({ WEBHOOK_DELIVERY_RETENTION_DAYS: '0' }, 'WEBHOOK_DELIVERY_RETENTION_DAYS', t);
  rejects({ WEBHOOK_EVENT_RETENTION_DAYS: 'a month' }, 'WEBHOOK_EVENT_RETENTION_DAYS', t);
});

t.test('the portal and the request log: PUBLIC_URL, PORTAL_INSECURE_COOKIES, REQUEST_LOG, REQUEST_LOG_RETENTION_DAYS', async (t) => {
  t.equal(loadConfig({ PORT: '8080' }).publicUrl, 'http://localhost:8080', 'this machine on PORT by default');
  t.equal(loadConfig({ PUBLIC_URL: 'https://api.example.com/' }).publicUrl, 'https://api.example.com', 'without its trailing slash');
  rejects({ PUBLIC_URL: 'ftp://api.example.com' }, 'PUBLIC_URL', t);
  rejects({ PUBLIC_URL: 'https://user:pw@api.example.com' }, 'PUBLIC_URL', t);
  t.equal(loadConfig({ PORTAL_INSECURE_COOKIES: 'true' }).portalInsecureCookies, true);
  t.equal(loadConfig({ REQUEST_LOG: 'off' }).requestLog, false);
  rejects({ REQUEST_LOG: 'no' }, 'REQUEST_LOG', t);
  t.equal(loadConfig({ REQUEST_LOG_RETENTION_DAYS: '30' }).retention.requestLogDays, 30);
  rejects({ REQUEST_LOG_RETENTION_DAYS: '0' }, 'REQUEST_LOG_RETENTION_DAYS', t);
});

t.test('SANDBOX_RETENTION_DAYS: how long untouched sandbox data is kept, in days', async (t) => {
  t.equal(loadConfig({ SANDBOX_RETENTION_DAYS: '30' }).retention.sandboxDays, 30);
  t.equal(loadConfig({ SANDBOX_RETENTION_DAYS: '7' }).retention.sandboxDays, 7, 'fewer days than the events feed keeps: that promise is live data\'s');
  rejects({ SANDBOX_RETENTION_DAYS: '0' }, 'SANDBOX_RETENTION_DAYS', t);
  rejects({ SANDBOX_RETENTION_DAYS: 'ninety' }, 'SANDBOX_RETENTION_DAYS', t);
});

t.test('REDIS_CLUSTER_NODES: seed nodes of a Redis Cluster, instead of REDIS_URL', async (t) => {
  t.same(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000,redis-b:7001' }).redisClusterNodes, [
    { host: '10.0.0.1', port: 7000 },
    { host: 'redis-b', port: 7001 },
  ]);
  rejects({ REDIS_CLUSTER_NODES: 'redis-a' }, 'REDIS_CLUSTER_NODES', t);
  rejects({ REDIS_CLUSTER_NODES: 'redis-a:7000', REDIS_URL: 'redis://r:6379' }, 'REDIS_CLUSTER_NODES', t);
});

t.test('DATABASE_READ_URL: a replica beside the primary, never alone', async (t) => {
  const config = loadConfig({ DATABASE_URL: 'postgres://primary/garage', DATABASE_READ_URL: 'postgres://replica/garage', ENCRYPTION_KEY: KEY });
  t.equal(config.databaseReadUrl, 'postgres://replica/garage');
  rejects({ DATABASE_READ_URL: 'postgres://replica/garage' }, 'DATABASE_READ_URL', t);
  rejects({ DATABASE_URL: 'postgres://primary/garage', ENCRYPTION_KEY: KEY, DATABASE_READ_URL: 'mysql://replica' }, 'DATABASE_READ_URL', t);
});

t.test('named statements: on unless a pooler in front of Postgres cannot keep them', async (t) => {
  t.equal(loadConfig({}).databaseNamedStatements, true);
  t.equal(loadConfig({ DATABASE_NAMED_STATEMENTS: 'off' }).databaseNamedStatements, false);
  rejects({ DATABASE_NAMED_STATEMENTS: 'false' }, 'DATABASE_NAMED_STATEMENTS', t);
});

t.test('pool size, statement timeout and shutdown delay', async (t) => {
  const config = loadConfig({ DATABASE_POOL_MAX: '6', DATABASE_STATEMENT_TIMEOUT_MS: '2500', SHUTDOWN_DELAY_MS: '5000' });
  t.same([config.databasePoolMax, config.databaseStatementTimeoutMs, config.shutdownDelayMs], [6, 2500, 5000]);
  rejects({ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX', t);
  rejects({ DATABASE_STATEMENT_TIMEOUT_MS: 'soon' }, 'DATABASE_STATEMENT_TIMEOUT_MS', t);
  rejects({ SHUTDOWN_DELAY_MS: '-1' }, 'SHUTDOWN_DELAY_MS', t);
});

t.test('PUBLIC_CACHE_MAX_AGE_SECONDS: how long shared caches may keep a public fleet read', async (t) => {
  t.equal(loadConfig({}).publicCacheMaxAgeSeconds, null, 'unset: public reads are private, no-cache like the others');
  t.equal(loadConfig({ PUBLIC_CACHE_MAX_AGE_SECONDS: '30' }).publicCacheMaxAgeSeconds, 30);
  t.equal(loadConfig({ PUBLIC_CACHE_MAX_AGE_SECONDS: '300' }).publicCacheMaxAgeSeconds, 300);
  t.equal(loadConfig({ PUBLIC_CACHE_MAX_AGE_SECONDS: '0' }).publicCacheMaxAgeSeconds, 0, 'every reuse revalidated');
  t.equal(loadConfig({ PUBLIC_CACHE_MAX_AGE_SECONDS: '86400' }).publicCacheMaxAgeSeconds, 86_400);
  rejects({ PUBLIC_CACHE_MAX_AGE_SECONDS: '86401' }, 'PUBLIC_CACHE_MAX_AGE_SECONDS', t);
  rejects({ PUBLIC_CACHE_MAX_AGE_SECONDS: '30s' }, 'PUBLIC_CACHE_MAX_AGE_SECONDS', t);
  rejects({ PUBLIC_CACHE_MAX_AGE_SECONDS: '-1' }, 'PUBLIC_CACHE_MAX_AGE_SECONDS', t);
});

t.test('NODE_ENV=production refuses the embedded database unless EMBEDDED=true', async (t) => {
  const message = rejects({ NODE_ENV: 'production' }, 'DATABASE_URL', t);
  t.match(message, /EMBEDDED=true/);
  t.equal(loadConfig({ NODE_ENV: 'production', EMBEDDED: 'true' }).databaseUrl, null, 'an explicit choice');
  t.equal(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/garage', ENCRYPTION_KEY: KEY }).databaseUrl, 'postgres://db/garage');
  t.equal(loadConfig({ NODE_ENV: 'development' }).databaseUrl, null, 'development starts embedded');
});

t.test('webhook delivery and start-up migrations can be left to other processes', async (t) => {
  const config = loadConfig({ DELIVER_WEBHOOKS: 'false', MIGRATE_ON_START: 'false' });
  t.equal(config.deliverWebhooks, false);
  t.equal(config.migrateOnStart, false);
  t.throws(() => loadConfig({ DELIVER_WEBHOOKS: 'no' }), /DELIVER_WEBHOOKS must be true or false/);
});

t.test('every variable', async (t) => {
  const config = loadConfig({
    PORT: '8080',
    HOST: '127.0.0.1',
    DATABASE_URL: 'postgres://app:secret@db:5432/garage',
    PGLITE_DIR: '/var/lib/garage',
    REDIS_URL: 'redis://cache:6379',
    ENCRYPTION_KEY: KEY,
    TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
    LOG_LEVEL: 'warn',
    WEBHOOK_RETRY_SCHEDULE: '1s,2s,500ms,1m,1h',
  });
  t.equal(config.port, 8080);
  t.equal(config.host, '127.0.0.1');
  t.equal(config.databaseUrl, 'postgres://app:secret@db:5432/garage');
  t.equal(config.pgliteDir, '/var/lib/garage');
  t.equal(config.redisUrl, 'redis://cache:6379');
  t.equal(config.encryptionKey, KEY);
  t.same(config.trustProxy, ['10.0.0.0/8', '192.168.1.1']);
  t.equal(config.logLevel, 'warn');
  t.same(config.webhookRetryScheduleMs, [1000, 2000, 500, 60_000, 3_600_000]);
});

t.test('TRUST_PROXY forms', async (t) => {
  t.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
  t.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  t.same(loadConfig({ TRUST_PROXY: '::1,fd00::/8' }).trustProxy, ['::1', 'fd00::/8']);
});

t.test('TRUST_PROXY=true is refused at start: any client could choose its address', async (t) => {
  t.throws(() => loadConfig({ TRUST_PROXY: 'true' }), /TRUST_PROXY must not be true: .*number of proxies/);
});

t.test('WEBHOOK_ALLOWED_NETWORKS: a CIDR list, single addresses taken as one-address ranges', async (t) => {
  t.same(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8, ::1, 10.20.0.0/16' }).webhookAllowedNetworks, ['127.0.0.0/8', '::1/128', '10.20.0.0/16']);
  t.throws(() => loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,intranet' }), /WEBHOOK_ALLOWED_NETWORKS must be a comma-separated list of CIDR ranges: entry #2/);
  t.throws(() => loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/33' }), /WEBHOOK_ALLOWED_NETWORKS/);
});

t.test('empty values count as unset', async (t) => {
  t.equal(loadConfig({ PORT: '', DATABASE_URL: '' }).port, 3000);
});

const rejects = (env: Record<string, string>, variable: string, t: Tap) => {
  let error: unknown;
  try {
    loadConfig(env);
  } catch (err) {
    error = err;
  }
  t.type(error, ConfigError, JSON.stringify(env));
  t.equal((error as ConfigError).variable, variable);
  t.match((error as Error).message, new RegExp(`^Invalid configuration: ${variable} `));
  return (error as Error).message;
};

t.test('bad values name their variable', async (t) => {
  rejects({ PORT: 'abc' }, 'PORT', t);
  rejects({ PORT: '70000' }, 'PORT', t);
  rejects({ PORT: '-1' }, 'PORT', t);
  rejects({ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL', t);
  rejects({ REDIS_URL: 'http://x' }, 'REDIS_URL', t);
  rejects({ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL', t);
  rejects({ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY', t);
  rejects({ TRUST_PROXY: '10.0.0.0/99' }, 'TRUST_PROXY', t);
  rejects({ WEBHOOK_RETRY_SCHEDULE: '5 seconds' }, 'WEBHOOK_RETRY_SCHEDULE', t);
  rejects({ WEBHOOK_RETRY_SCHEDULE: '0s' }, 'WEBHOOK_RETRY_SCHEDULE', t);
});

t.test('ENCRYPTION_KEY: 32 bytes of base64, required with DATABASE_URL, never echoed', async (t) => {
  const short = Buffer.alloc(16, 1).toString('base64');
  const message = rejects({ ENCRYPTION_KEY: short }, 'ENCRYPTION_KEY', t);
  t.notOk(message.includes(short), 'the key is not echoed');
  rejects({ ENCRYPTION_KEY: 'not base64 at all!!' }, 'ENCRYPTION_KEY', t);
  rejects({ DATABASE_URL: 'postgres://db/garage' }, 'ENCRYPTION_KEY', t);
  t.equal(loadConfig({ DATABASE_URL: 'postgres://db/garage', ENCRYPTION_KEY: KEY }).encryptionKey, KEY);
  t.equal(loadConfig({ ENCRYPTION_KEY: KEY }).encryptionKey, KEY, 'allowed in embedded mode too');
});

t.test('ENCRYPTION_KEY_PREVIOUS: former keys for decryption, each checked, never echoed', async (t) => {
  const previous = [Buffer.alloc(32, 1).toString('base64'), Buffer.alloc(32, 2).toString('base64')];
  const config = loadConfig({ ENCRYPTION_KEY: KEY, ENCRYPTION_KEY_PREVIOUS: ` ${previous[0]}, ${previous[1]},` });
  t.same(config.previousEncryptionKeys, previous);
  const message = rejects({ ENCRYPTION_KEY: KEY, ENCRYPTION_KEY_PREVIOUS: `${previous[0]},not-a-key-at-all` }, 'ENCRYPTION_KEY_PREVIOUS', t);
  t.match(message, /entry #2/);
  t.notMatch(message, /not-a-key|AQEB/);
});
