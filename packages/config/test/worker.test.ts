import { randomBytes } from 'node:crypto';
import t from 'tap';
import { loadWorkerConfig } from '../src/index.js';

const key = randomBytes(32).toString('base64');
const valid = { DATABASE_URL: 'postgres://u@db/garage', ENCRYPTION_KEY: key };

t.test('a valid environment gives the settings, with defaults', async (t) => {
  const config = loadWorkerConfig(valid);
  t.equal(config.databaseUrl, 'postgres://u@db/garage');
  t.equal(config.databaseNamedStatements, true);
  t.equal(loadWorkerConfig({ ...valid, DATABASE_NAMED_STATEMENTS: 'off' }).databaseNamedStatements, false, 'off behind a pooler that cannot keep them');
  t.equal(config.logLevel, 'info');
  t.same(config.schedule, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  t.equal(config.encryptionKeys.length, 1);
  t.match(config.encryptionKeys[0]?.id, /^[0-9a-f]{8}$/);
  t.same(loadWorkerConfig({ ...valid, WEBHOOK_RETRY_SCHEDULE: '100ms,1s', LOG_LEVEL: 'warn' }).schedule, [100, 1_000]);
  t.equal(loadWorkerConfig({ ...valid, LOG_LEVEL: '' }).logLevel, 'info', 'empty means unset');
  t.same(config.allowedNetworks, [], 'only public webhook destinations by default');
  t.same(loadWorkerConfig({ ...valid, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' }).allowedNetworks, ['127.0.0.0/8', '::1/128']);
  t.same(config.retention, { webhookEventDays: 30, webhookDeliveryDays: 30, sandboxDays: 90, requestLogDays: 7 }, 'the retention job runs here too, with the API\'s settings');
  t.throws(() => loadWorkerConfig({ ...valid, WEBHOOK_EVENT_RETENTION_DAYS: '7' }), /WEBHOOK_EVENT_RETENTION_DAYS must be a number of days from 30/);
  t.equal(loadWorkerConfig({ ...valid, SANDBOX_RETENTION_DAYS: '14' }).retention.sandboxDays, 14, 'the worker purges untouched sandboxes too');
  t.throws(() => loadWorkerConfig({ ...valid, SANDBOX_RETENTION_DAYS: '0' }), /SANDBOX_RETENTION_DAYS must be a number of days from 1 to 99999/);
});

t.test('a bad value names the variable and never echoes the key', async (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ ENCRYPTION_KEY: key }, /DATABASE_URL/],
    [{ ...valid, DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ DATABASE_URL: valid.DATABASE_URL }, /ENCRYPTION_KEY is required/],
    [{ ...valid, ENCRYPTION_KEY: 'c2hvcnQ=' }, /ENCRYPTION_KEY must be the base64 encoding of exactly 32 bytes/],
    [{ ...valid, WEBHOOK_RETRY_SCHEDULE: '1s,soon' }, /WEBHOOK_RETRY_SCHEDULE .*"soon"/],
    [{ ...valid, LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ ...valid, WEBHOOK_ALLOWED_NETWORKS: 'everything' }, /WEBHOOK_ALLOWED_NETWORKS must be a comma-separated list of CIDR ranges/],
  ];
  for (const [env, message] of cases) {
    const err = t.throws(() => loadWorkerConfig(env), message) as Error | undefined;
    t.notMatch(err?.message ?? '', key);
  }
});

t.test('ENCRYPTION_KEY_PREVIOUS adds decrypt-only keys after the active one', async (t) => {
  const old = randomBytes(32).toString('base64');
  const config = loadWorkerConfig({ ...valid, ENCRYPTION_KEY_PREVIOUS: ` ${old} ,` });
  t.same(
    config.encryptionKeys.map((k) => k.key.toString('base64')),
    [key, old],
    'the active key first: it is the one that encrypts',
  );
  const err = t.throws(() => loadWorkerConfig({ ...valid, ENCRYPTION_KEY_PREVIOUS: `${old},nope` }), /ENCRYPTION_KEY_PREVIOUS entry #2/) as
    | Error
    | undefined;
  t.notMatch(err?.message ?? '', old);
});
