import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseHandle } from '@garage/postgres';
import type { InjectOptions } from 'fastify';
import t, { type Test } from 'tap';
import { buildApp, loadConfig, type App } from '../src/index.js';
import { build } from './helper.js';
import { openStorage } from '@garage/composition';

/**
 * docs/reference/contract.md §1: text holding NUL (which Postgres cannot store) or an unpaired UTF-16 surrogate (which would be
 * stored as U+FFFD, silently changing what the client sent) gets 400 VALIDATION_FAILED naming the field, wherever it
 * is sent: body, query string or path, on every route, and nothing is written. Run on Postgres and on PGlite.
 */

const NUL = 'a\u0000b';
const LONE_HIGH = 'a\ud800b';
const LONE_LOW = '\udc00';

interface World {
  app: App;
  apiKey: string;
  quoteToken: string;
  vehicleId: string;
  /** Rows a request could have written, before the scenarios and (once they are done) after. */
  before: Record<string, number>;
  after: () => Promise<Record<string, number>>;
}

const countWrites = async (db: DatabaseHandle['db']) => {
  const rows = async (table: 'appointments' | 'leads' | 'idempotency_keys' | 'webhook_events') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const decided = await db.selectFrom('quotes').select((eb) => eb.fn.countAll().as('n')).where('status', '<>', 'pending').executeTakeFirstOrThrow();
  return {
    appointments: await rows('appointments'),
    leads: await rows('leads'),
    idempotency_keys: await rows('idempotency_keys'),
    webhook_events: await rows('webhook_events'),
    decided_quotes: Number(decided.n),
  };
};

const firstVehicle = async (app: App) => {
  const res = await app.inject({ method: 'GET', url: '/api/public/fleet?garageSlug=demo' });
  return (res.json() as { data: { id: string }[] }).data[0]?.id as string;
};

const bookableStart = async (app: App, apiKey: string): Promise<string> => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const res = await app.inject({
    method: 'GET',
    url: `/api/public/appointments/availability?from=${day(2)}&to=${day(9)}`,
    headers: { 'x-api-key': apiKey },
  });
  return (res.json() as { data: { startsAt: string }[] }).data[0]?.startsAt as string;
};

const scenarios = async (t: Test, world: World) => {
  const { app, apiKey, quoteToken, vehicleId } = world;
  const startsAt = await bookableStart(app, apiKey);
  t.ok(startsAt, 'a bookable start to make bodies otherwise valid');

  const expect400 = async (t: Test, what: string, request: InjectOptions, path: string) => {
    const res = await app.inject(request);
    t.equal(res.statusCode, 400, `${what}: 400`);
    const body = res.json();
    t.equal(body.code, 'VALIDATION_FAILED', what);
    t.ok(
      (body.details as { path: string }[] | undefined)?.some((d) => d.path === path),
      `${what}: details name ${JSON.stringify(path)} (got ${JSON.stringify(body.details)})`,
    );
  };
  // Every request from its own address, so that the per-IP limits of leads and quotes never answer first.
  let address = 0;
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => ({
    remoteAddress: `198.51.100.${(address += 1) % 250}`,
    method: 'POST' as const,
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(payload),
  });
  const booking = (patch: Record<string, unknown>) => ({
    startsAt,
    customer: { name: 'Jeanne Martin', email: 'jeanne@example.com' },
    ...patch,
  });
  const key = { 'x-api-key': apiKey };

  for (const [label, bad] of [['NUL', NUL], ['lone high surrogate', LONE_HIGH], ['lone low surrogate', LONE_LOW]] as const) {
    await t.test(`bodies: ${label}`, async (t) => {
      await expect400(t, 'booking customer.name', post('/api/public/appointments', booking({ customer: { name: bad, email: 'j@example.com' } }), key), '/customer/name');
      await expect400(t, 'booking externalRef', post('/api/public/appointments', booking({ externalRef: bad }), key), '/externalRef');
      await expect400(t, 'booking vehicle.make', post('/api/public/appointments', booking({ vehicle: { make: bad } }), key), '/vehicle/make');
      await expect400(t, 'booking notes', post('/api/public/appointments', booking({ notes: bad }), { ...key, 'idempotency-key': 'k1' }), '/notes');
      await expect400(t, 'lead name', post('/api/public/fleet/lead', { vehicleId, name: bad, email: 'j@example.com', consent: true }), '/name');
      await expect400(t, 'lead message', post('/api/public/fleet/lead', { vehicleId, name: 'J', email: 'j@example.com', message: bad, consent: true }), '/message');
      await expect400(t, 'accept signerName', post(`/api/public/quotes/${quoteToken}/accept`, { signerName: bad }), '/signerName');
      await expect400(t, 'accept comment', post(`/api/public/quotes/${quoteToken}/accept`, { comment: bad }, { 'idempotency-key': 'k2' }), '/comment');
      await expect400(t, 'refuse reason', post(`/api/public/quotes/${quoteToken}/refuse`, { reason: bad }), '/reason');
      await expect400(t, 'a property name', post('/api/public/fleet/lead', { vehicleId, name: 'J', email: 'j@example.com', consent: true, [bad]: 1 }), `/${bad}`);
    });
  }

  await t.test('query parameters and path segments: NUL', async (t) => {
    const get = (url: string, headers: Record<string, string> = key) => ({ method: 'GET' as const, url, headers });
    await expect400(t, 'products sku', get('/api/public/products?sku=a%00b'), '/sku');
    await expect400(t, 'stock sku', get('/api/public/stock?sku=%00'), '/sku');
    await expect400(t, 'fleet make', get('/api/public/fleet?garageSlug=demo&make=pe%00', {}), '/make');
    await expect400(t, 'fleet make with a key', get('/api/public/fleet?make=%00'), '/make');
    await expect400(t, 'products cursor', get('/api/public/products?cursor=%00'), '/cursor');
    // A name is named as a log line names it: ill-formed, it may be a key with a byte added.
    await expect400(t, 'an unknown parameter', get('/api/public/products?x%00=1'), '/[redacted]');
    const keyAsName = await app.inject(get(`/api/public/products?${'a'.repeat(32)}%00=1`));
    t.equal(keyAsName.statusCode, 400);
    t.notOk(keyAsName.body.includes('a'.repeat(32)), 'a key with a NUL added is not echoed');
    await expect400(t, 'quote token', get('/api/public/quotes/ab%00cd', {}), '/token');
    await expect400(t, 'accept token', post('/api/public/quotes/ab%00cd/accept', {}), '/token');
    await expect400(t, 'lead query', post('/api/public/fleet/lead?x=%00', { vehicleId, name: 'J', email: 'j@example.com', consent: true }), '/x');
    await expect400(t, 'vehicle id', get('/api/public/fleet/%00?garageSlug=demo', {}), '/vehicleId');
    // A surrogate travels in a URL as its percent-encoded WTF-8 bytes, which are not UTF-8: refused as in a body.
    const path = await app.inject(get('/api/public/quotes/%ED%A0%80', {}));
    t.equal(path.statusCode, 400, 'invalid UTF-8 in a path segment');
    t.equal(path.json().code, 'VALIDATION_FAILED');
    await expect400(t, 'products sku, a lone high surrogate', get('/api/public/products?sku=%ED%A0%80'), '/sku');
    await expect400(t, 'stock sku, a lone low surrogate', get('/api/public/stock?limit=5&sku=x%ED%B0%80'), '/sku');
    await expect400(t, 'fleet make, public', get('/api/public/fleet?garageSlug=demo&make=%ED%B0%80', {}), '/make');
    await expect400(t, 'fleet make with a key', get('/api/public/fleet?make=Pe%ED%A0%80ugeot'), '/make');
    await expect400(t, 'a parameter name', get('/api/public/products?%ED%A0%80=1'), '/[redacted]');
    const accented = await app.inject(get('/api/public/fleet?make=Citro%C3%ABn'));
    t.equal(accented.statusCode, 200, 'percent-encoded UTF-8 still passes');
  });

  await t.test('JSON nested thousands deep: 400, not a stack overflow', async (t) => {
    for (const [what, payload] of [
      ['arrays', `${'['.repeat(5000)}${']'.repeat(5000)}`],
      ['objects in a field', `{"vehicleId":"${vehicleId}","name":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`],
    ] as const) {
      const res = await app.inject({ ...post('/api/public/fleet/lead', null), payload });
      t.equal(res.statusCode, 400, what);
      t.equal(res.json().code, 'VALIDATION_FAILED', what);
      t.match(res.json().details, [{ message: /deeper than 32 levels/ }], what);
    }
  });

  await t.test('a start in year 0001: 400 naming /startsAt, the database never asked about year 0', async (t) => {
    await expect400(t, 'startsAt 0001-01-01', post('/api/public/appointments', booking({ startsAt: '0001-01-01T09:00:00Z' }), key), '/startsAt');
    await expect400(t, 'startsAt 0001-01-01 east of UTC', post('/api/public/appointments', booking({ startsAt: '0001-01-01T00:00:00+01:00' }), key), '/startsAt');
  });

  await t.test('well-formed text outside the BMP and ordinary accents still pass', async (t) => {
    const res = await app.inject(post('/api/public/fleet/lead', { vehicleId, name: 'Zoë 🚗', email: 'z@example.com', consent: true }));
    t.equal(res.statusCode, 201);
  });

  await t.test('nothing was written by a refused request', async (t) => {
    const { before } = world;
    t.same(await world.after(), { ...before, leads: (before.leads ?? 0) + 1, webhook_events: (before.webhook_events ?? 0) + 1 }, 'only the well-formed lead (and its event)');
  });
};

t.test('on Postgres', async (t) => {
  const { app, admin, db } = await build(t);
  const demo = await admin.seedDemo();
  await scenarios(t, {
    app,
    apiKey: demo.integrations[0]?.apiKey as string,
    quoteToken: demo.quotes.find((q) => q.status === 'pending')?.token as string,
    vehicleId: await firstVehicle(app),
    before: await countWrites(db.handle.db),
    after: () => countWrites(db.handle.db),
  });
});

t.test('on the embedded database (PGlite)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'garage-text-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const pgliteDir = join(dir, '.data', 'pglite');
  const start = async () => {
    const app = await buildApp(loadConfig({ PGLITE_DIR: pgliteDir, LOG_LEVEL: 'silent', DELIVER_WEBHOOKS: 'false' }));
    t.teardown(() => app.close());
    await app.ready();
    return app;
  };
  // PGlite serves one process at a time: rows are counted with the app closed.
  const count = async () => {
    const storage = await openStorage({ pgliteDir, logger: { warn: () => {} } });
    try {
      return await countWrites(storage.handle.db);
    } finally {
      await storage.handle.close();
    }
  };
  await (await start()).close();
  const before = await count();
  const app = await start();
  const credentials = JSON.parse(await readFile(app.demo?.credentialsFile as string, 'utf8')) as {
    quotes: { token: string; status: string }[];
  };
  await scenarios(t, {
    app,
    apiKey: app.demo?.apiKey as string,
    quoteToken: credentials.quotes.find((q) => q.status === 'pending')?.token as string,
    vehicleId: await firstVehicle(app),
    before,
    after: async () => {
      await app.close();
      return count();
    },
  });
});
