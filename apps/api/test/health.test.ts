import { createServer, connect, type Server, type Socket } from 'node:net';
import t from 'tap';
import { build, seedGarage } from './helper.js';
import { testDatabaseUrl } from '@garage/postgres/testing';

/** A TCP proxy in front of Postgres that the test can cut and restore, to take the database away from the app. */
const startProxy = async (target: URL) => {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        const address = server?.address();
        if (address && typeof address === 'object') port = address.port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (server) server.close(() => resolve());
        else resolve();
      }),
    restore: listen,
  };
};

t.test('health', async (t) => {
  const { app } = await build(t);

  t.test('live', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/health/live' });
    t.equal(res.statusCode, 200);
    t.same(res.json(), { status: 'ok', checks: { postgres: 'up', redis: 'absent', draining: false } });
    t.equal(res.headers['cache-control'], 'no-store');
  });

  t.test('ready while the database answers', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/health/ready' });
    t.equal(res.statusCode, 200);
    t.same(res.json(), { status: 'ok', checks: { postgres: 'up', redis: 'absent', draining: false } });
  });
});

t.test('concurrent readiness requests share one probe of the dependencies', async (t) => {
  // A share longer than the test, so that no timing decides the count.
  const { app } = await build(t, { readinessShareMs: 60_000 });
  // Counted where the readiness plugin calls it, from the first probe (the one made when the app gets ready).
  let probes = 0;
  app.readiness.add('postgres', async () => {
    probes += 1;
  });
  await app.ready();
  t.equal(probes, 1, 'the first report');
  const answers = await Promise.all(Array.from({ length: 50 }, () => app.inject({ method: 'GET', url: '/health/ready' })));
  t.ok(answers.every((res) => res.statusCode === 200 && res.json().checks.postgres === 'up'));
  t.equal(probes, 1, 'fifty requests, no further probe');
  app.readiness.drain();
  t.equal((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode, 503, 'draining shows at once, shared probe or not');
  t.equal(probes, 1);
});

t.test('when Postgres goes away: 503 UNAVAILABLE quickly, then recovery', async (t) => {
  const target = new URL(testDatabaseUrl());
  const proxy = await startProxy(target);
  t.teardown(() => proxy.cut());
  const { app, admin } = await build(t, {
    databaseUrl: (url) => {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(proxy.port);
      return through.toString();
    },
  });
  const garage = await seedGarage(admin);
  const products = () => app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-api-key': garage.keys.all } });
  t.equal((await products()).statusCode, 200);

  await proxy.cut();
  const ready = await app.inject({ method: 'GET', url: '/health/ready' });
  t.equal(ready.statusCode, 503);
  t.same(ready.json(), { status: 'unavailable', checks: { postgres: 'down', redis: 'absent', draining: false } });
  const live = await app.inject({ method: 'GET', url: '/health/live' });
  t.equal(live.statusCode, 200, 'still alive');
  t.match(live.json(), { status: 'ok', checks: { postgres: 'down' } }, 'liveness shows the last report without probing');
  for (const request of [
    products,
    () => app.inject({ method: 'GET', url: `/api/public/fleet?garageSlug=${garage.slug}` }),
    () => app.inject({ method: 'GET', url: '/api/public/stock', headers: { 'x-api-key': '0123456789abcdef0123456789abcdef' } }),
  ]) {
    const started = Date.now();
    const res = await request();
    t.equal(res.statusCode, 503, res.body);
    t.same(Object.keys(res.json()).sort(), ['code', 'error']);
    t.equal(res.json().code, 'UNAVAILABLE');
    t.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
  }

  await proxy.restore();
  let status = 0;
  const restoredAt = Date.now();
  while (status !== 200 && Date.now() - restoredAt < 10_000) {
    status = (await app.inject({ method: 'GET', url: '/health/ready' })).statusCode;
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.equal(status, 200, 'ready again by itself');
  t.equal((await products()).statusCode, 200, 'serving again');
});

t.test('a statement past DATABASE_STATEMENT_TIMEOUT_MS is a 503 UNAVAILABLE, not a hang', async (t) => {
  const { app, admin, db } = await build(t, { env: { DATABASE_STATEMENT_TIMEOUT_MS: '300' } });
  const garage = await seedGarage(admin);
  const pool = db.handle.pool;
  if (!pool) throw new Error('the API tests run on Postgres');
  const locker = await pool.connect();
  t.teardown(() => locker.release());
  await locker.query('begin');
  await locker.query('lock table products in access exclusive mode');
  const started = Date.now();
  const res = await app.inject({ method: 'GET', url: '/api/public/products?sku=locked', headers: { 'x-api-key': garage.keys.all } });
  const elapsed = Date.now() - started;
  await locker.query('rollback');
  t.equal(res.statusCode, 503, res.body);
  t.equal(res.json().code, 'UNAVAILABLE');
  t.ok(elapsed < 3000, `answered in ${elapsed} ms, after the 300 ms timeout`);
});
