import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import type { App } from '../src/index.js';
import { startMetricsServer, type MetricsServer } from '@garage/observability';
import { build, LOOPBACK_WEBHOOKS, seedGarage } from './helper.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
const parse = (text: string): Sample[] =>
  text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
      return { name: match[1] as string, labels, value: Number(match[3]) };
    });

/** What Prometheus reads: `/metrics` on the metrics listener of the app (port 0 here: any free port). */
const listeners = new Map<App, Promise<MetricsServer>>();
t.teardown(async () => {
  for (const starting of listeners.values()) await (await starting).close();
});
const scrape = async (app: App) => {
  if (!listeners.has(app)) listeners.set(app, startMetricsServer({ registry: app.metrics.registry, host: '127.0.0.1', port: 0 }));
  const server = await (listeners.get(app) as Promise<MetricsServer>);
  const response = await fetch(`http://${server.address}/metrics`);
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET /metrics: ${response.status}`);
  return { res: { statusCode: response.status, headers: Object.fromEntries(response.headers), body }, samples: parse(body), server };
};

/** The value of the one sample with exactly these labels (among others), 0 when absent. */
const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);

const waitFor = async (condition: () => Promise<boolean>, attempts = 150) => {
  for (let i = 0; i < attempts; i += 1) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
};

/** A webhook receiver on loopback answering with the given statuses, then 200. */
const receiver = async (t: Test, statuses: number[]) => {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
};

t.test('GET /metrics', async (t) => {
  // One instance for every check below, as a scraper sees it; retries are quick so that a retried webhook shows.
  const { app, admin, db } = await build(t, { env: { WEBHOOK_RETRY_SCHEDULE: '100ms', ...LOOPBACK_WEBHOOKS } });
  const garage = await seedGarage(admin);

  t.test('requests by route pattern and status, never by URL', async (t) => {
    const vehicleId = garage.vehicleIds['V-1'] as string;
    const secretToken = 'quote-token-that-must-not-leak-0123456789';

    const key = { 'x-api-key': garage.keys.all };
    for (let i = 0; i < 3; i += 1) await app.inject({ method: 'GET', url: '/api/public/products', headers: key });
    await app.inject({ method: 'GET', url: `/api/public/products?apiKey=${garage.keys.catalog}` });
    await app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-api-key': '0123456789abcdef0123456789abcdef' } });
    await app.inject({ method: 'GET', url: `/api/public/fleet/${vehicleId}?garageSlug=${garage.slug}` });
    await app.inject({ method: 'GET', url: `/api/public/quotes/${secretToken}` });
    await app.inject({ method: 'GET', url: `/no/such/route/${secretToken}` });

    const { res, samples } = await scrape(app);
    t.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/);
    t.equal(valueOf(samples, 'http_requests_total', { method: 'GET', route: '/api/public/products', status_code: '200' }), 4);
    t.equal(valueOf(samples, 'http_requests_total', { route: '/api/public/products', status_code: '401' }), 1);
    t.equal(valueOf(samples, 'http_requests_total', { route: '/api/public/fleet/:vehicleId', status_code: '200' }), 1);
    t.equal(valueOf(samples, 'http_requests_total', { route: '/api/public/quotes/:token', status_code: '404' }), 1);
    t.equal(valueOf(samples, 'http_requests_total', { route: 'unmatched', status_code: '404' }), 1);
    t.equal(
      valueOf(samples, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/public/products', status_code: '200' }),
      4,
      'a latency histogram by the same labels',
    );
    t.ok(samples.some((s) => s.name === 'http_request_duration_seconds_bucket' && s.labels.le === '0.1'));
    for (const secret of [vehicleId, secretToken, garage.keys.all, garage.keys.catalog, garage.slug]) {
      t.notOk(res.body.includes(secret), 'no id, token, key or slug in any label');
    }
    t.ok(samples.some((s) => s.name === 'process_cpu_seconds_total'), 'process metrics too');
  });

  t.test('database pool gauges', async (t) => {
    const { samples } = await scrape(app);
    for (const name of ['db_pool_connections', 'db_pool_idle_connections', 'db_pool_waiting_requests']) {
      t.ok(samples.some((s) => s.name === name), name);
    }
    t.ok(valueOf(samples, 'db_pool_connections') >= 1, 'the pool holds the connection that served start-up');
    t.equal(valueOf(samples, 'db_pool_waiting_requests'), 0);
    for (const source of ['idle', 'in_use', 'listen']) {
      t.ok(
        samples.some((s) => s.name === 'db_connection_errors_total' && s.labels.database === 'primary' && s.labels.source === source),
        `db_connection_errors_total{source="${source}"} is exported before any loss`,
      );
    }
  });

  t.test('a database connection the server ends is counted, and the next request is served', async (t) => {
    const lost = async () => valueOf((await scrape(app)).samples, 'db_connection_errors_total', { database: 'primary', source: 'in_use' });
    const before = await lost();
    // A connection of the app's pool, held as a transaction would hold it, ended by the server.
    const pool = app.storage.handle.pool;
    if (!pool) throw new Error('the app runs on Postgres');
    const held = await pool.connect();
    const { rows } = await held.query<{ pid: number }>('select pg_backend_pid() as pid');
    await db.handle.pool?.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
    t.ok(await waitFor(async () => (await lost()) > before), 'db_connection_errors_total{database="primary", source="in_use"} moves');
    held.release(true);
    const res = await app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-api-key': garage.keys.all } });
    t.equal(res.statusCode, 200);
  });

  t.test('429s are counted by route; /metrics itself is neither limited nor documented', async (t) => {
    const vehicleId = garage.vehicleIds['V-1'] as string;
    const body = JSON.stringify({ vehicleId, name: 'Jeanne', email: 'jeanne@example.com', consent: true });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/public/fleet/lead',
        remoteAddress: '198.18.0.7',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      statuses.push(res.statusCode);
    }
    t.same(statuses, [201, 201, 201, 201, 201, 429, 429]);
    let samples = (await scrape(app)).samples;
    for (let i = 0; i < 40; i += 1) samples = (await scrape(app)).samples;
    t.equal(valueOf(samples, 'http_rate_limited_total', { route: '/api/public/fleet/lead' }), 2, 'every scrape answered, none limited');
    t.equal(valueOf(samples, 'http_requests_total', { route: '/metrics' }), 0, 'scrapes are not API requests');

    const openapi = (await app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json() as { paths: Record<string, unknown> };
    t.notOk('/metrics' in openapi.paths, 'not in the public API document');
    t.ok('/api/public/products' in openapi.paths);
  });

  t.test('webhook deliveries by outcome', async (t) => {
    const url = await receiver(t, [500]);
    const hooked = await seedGarage(admin, 'hooked');
    await admin.createIntegration({ garageSlug: hooked.slug, name: 'hooked', sync: [], webhookUrl: url });
    const lead = await app.inject({
      method: 'POST',
      url: '/api/public/fleet/lead',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ vehicleId: hooked.vehicleIds['V-1'], name: 'Paul', phone: '+33612345678', consent: true }),
    });
    t.equal(lead.statusCode, 201);
    const delivered = await waitFor(async () => valueOf((await scrape(app)).samples, 'webhook_deliveries_total', { result: 'succeeded' }) === 1);
    t.ok(delivered, 'the retry succeeded');
    const { samples } = await scrape(app);
    t.equal(valueOf(samples, 'webhook_deliveries_total', { result: 'pending' }), 1, 'the failed first attempt, retry scheduled');
    t.equal(valueOf(samples, 'webhook_deliveries_total', { result: 'failed' }), 0);
  });
});

t.test('metrics are served on their own listener only, never on the public port', async (t) => {
  const { app } = await build(t);
  const { server } = await scrape(app);
  for (const url of ['/metrics', '/%6detrics', '/metrics?x=1', '/api/public/../metrics']) {
    t.equal((await app.inject({ method: 'GET', url })).statusCode, 404, `public ${url}: 404`);
  }
  const other = await fetch(`http://${server.address}/api/public/products`);
  t.equal(other.status, 404, 'the metrics listener serves nothing else');
  await other.text();
});
