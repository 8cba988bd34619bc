import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { createTestDatabase } from '@garage/postgres/testing';
import { adminFor, ENCRYPTION_KEY, seedGarage } from '@garage/composition/testing';
import { eventually, freePort, http, sleep, startApi, tcpProxy, type HttpOptions, type HttpResponse } from './support/processes.js';
import { requireTestRedis } from '@garage/redis/testing';

/**
 * Three API processes behind haproxy, as operators run them (docker/compose.yaml): one Postgres database, one Redis,
 * no state in any instance but the key cache. Everything a client sees must hold whichever instance answers.
 */

const REDIS_URL = await requireTestRedis();

const HAPROXY = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'].find((path) => existsSync(path));
if (!HAPROXY) throw new Error('haproxy is not installed: the scale-out test needs it (.ci/system-deps installs it)');

const INSTANCES = 3;
/** docs/reference/contract.md §6: revoking or rotating a key takes effect on every instance within 5 seconds. */
const REVOCATION_WINDOW_MS = 5000;

/**
 * A client address of this run alone on loopback (any of 127.0.0.0/8 works): the per-IP counters live in the shared
 * test Redis and outlive a run, and distinct addresses keep the checks below from sharing a count.
 */
const clientAddress = () => `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;

const DOCKER_HAPROXY = fileURLToPath(new URL('../../../docker/haproxy.cfg', import.meta.url));

/**
 * The load balancer's configuration: docker/haproxy.cfg itself, with the replicas found by Docker's DNS replaced by
 * the test's processes, shorter health-check intervals, and a header naming the server that answered. Each rewrite
 * must apply, so that the test keeps running the deployed configuration.
 */
const haproxyConfig = async (port: number, apiPorts: number[]): Promise<string> => {
  const rewrite = (text: string, pattern: RegExp, replace: (...groups: string[]) => string) => {
    if (!pattern.test(text)) throw new Error(`docker/haproxy.cfg changed: ${pattern} no longer matches; update this test`);
    return text.replace(pattern, (_match, ...groups: string[]) => replace(...groups));
  };
  let config = await readFile(DOCKER_HAPROXY, 'utf8');
  config = rewrite(config, /^resolvers docker\n(?: {4}.*\n)+/m, () => '');
  config = rewrite(config, /^ {4}bind \*:8080$/m, () => `    bind 127.0.0.1:${port}`);
  config = rewrite(config, /^backend api$/m, () => 'backend api\n    http-response set-header x-served-by %s');
  for (const name of ['api', 'fallback']) {
    config = rewrite(config, new RegExp(`^ {4}server-template ${name} 3 api:3000(.*) resolvers docker init-addr none$`, 'm'), (options = '') =>
      apiPorts
        .map((p, i) => `    server ${name}${i + 1} 127.0.0.1:${p}${options.replace('inter 2s', 'inter 500ms').replace('rise 2', 'rise 1')}`)
        .join('\n'),
    );
  }
  return config;
};

const startHaproxy = async (t: Test, apiPorts: number[]): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'garage-haproxy-'));
  const port = await freePort();
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, await haproxyConfig(port, apiPorts));
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  t.teardown(async () => {
    child.kill('SIGKILL');
    await exited;
    await rm(dir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${port}`;
  // Up once every instance has passed its health check and answered through the balancer.
  const seen = new Set<string>();
  const up = await eventually(
    async () => {
      const res = await http(`${base}/health/ready`);
      if (res.status === 200) seen.add(String(res.headers['x-served-by']));
      return seen.size === apiPorts.length;
    },
    { attempts: 100 },
  );
  if (!up) throw new Error(`haproxy did not reach every instance (saw ${[...seen].join(', ')}): ${stderr}`);
  return base;
};

/** Connectors reading all the while: every answer must be a success, whichever instance serves it. */
const backgroundLoad = (base: string, requests: { path: string; headers?: Record<string, string> }[]) => {
  const statuses = new Map<number, number>();
  const errors: string[] = [];
  let running = true;
  const worker = async (offset: number) => {
    for (let i = offset; running && i < offset + 5000; i += 1) {
      const { path, headers } = requests[i % requests.length] as (typeof requests)[number];
      try {
        const res = await http(`${base}${path}`, { headers });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
  };
  const workers = Promise.all([0, 1, 2].map(worker));
  return {
    statuses,
    errors,
    stop: async () => {
      running = false;
      await workers;
    },
  };
};

t.test('three instances behind haproxy share everything that matters', async (t) => {
  const db = await createTestDatabase('scaleout');
  t.teardown(() => db.drop());
  const admin = adminFor(db.handle.db);
  const garage = await seedGarage(admin);

  // The test Redis, through a proxy that the test can cut to take Redis away from these instances alone.
  const redisProxy = await tcpProxy(t, new URL(REDIS_URL));
  const redisUrl = new URL(REDIS_URL);
  redisUrl.hostname = '127.0.0.1';
  redisUrl.port = String(redisProxy.port);
  const env = {
    DATABASE_URL: db.url,
    ENCRYPTION_KEY,
    REDIS_URL: redisUrl.toString(),
    TRUST_PROXY: '1',
    // As in docker/compose.yaml: migrations ran once before, webhooks go to dedicated workers.
    MIGRATE_ON_START: 'false',
    DELIVER_WEBHOOKS: 'false',
  };
  const apis = await Promise.all(Array.from({ length: INSTANCES }, () => startApi(t, env)));
  const direct = apis.map((api) => `http://127.0.0.1:${api.port}`);
  const lb = await startHaproxy(t, apis.map((api) => api.port));

  const load = backgroundLoad(lb, [
    { path: '/api/public/products', headers: { 'x-api-key': garage.keys.catalog } },
    { path: '/api/public/stock', headers: { 'x-api-key': garage.keys.stock } },
    { path: `/api/public/fleet?garageSlug=${garage.slug}` },
    { path: `/api/public/fleet/${garage.vehicleIds['V-1']}?garageSlug=${garage.slug}` },
  ]);

  t.test('a revoked key stops working on every instance within 5 s', async (t) => {
    const client = clientAddress();
    const get = (base: string, key: string) => http(`${base}/api/public/products`, { headers: { 'x-api-key': key }, localAddress: client });
    // Every instance has the key in its cache.
    for (const base of [...direct, lb]) t.equal((await get(base, garage.keys.all)).status, 200);

    await admin.revokeIntegration(garage.integrationIds.all);
    const deadline = Date.now() + REVOCATION_WINDOW_MS;
    const pending = new Set([...direct, lb]);
    while (pending.size > 0 && Date.now() < deadline) {
      for (const base of [...pending]) if ((await get(base, garage.keys.all)).status === 401) pending.delete(base);
      await sleep(100);
    }
    t.same([...pending], [], 'no instance still accepts the revoked key');
    // Through the balancer, a few requests in a row reach every instance.
    const statuses = await Promise.all(Array.from({ length: INSTANCES * 2 }, () => get(lb, garage.keys.all)));
    t.same(new Set(statuses.map((r) => r.status)), new Set([401]));
  });

  t.test('a rotated key: the old one stops working on every instance within 5 s, the new one works at once', async (t) => {
    const client = clientAddress();
    const get = (base: string, key: string) => http(`${base}/api/public/products`, { headers: { 'x-api-key': key }, localAddress: client });
    const shop = await admin.createIntegration({ garageSlug: garage.slug, name: 'rotating', sync: ['catalog'], webhookUrl: null });
    for (const base of [...direct, lb]) t.equal((await get(base, shop.apiKey)).status, 200);

    const rotated = await admin.rotateKey(shop.integration.id);
    for (const base of [...direct, lb]) t.equal((await get(base, rotated.apiKey)).status, 200, 'the new key');
    const deadline = Date.now() + REVOCATION_WINDOW_MS;
    const pending = new Set([...direct, lb]);
    while (pending.size > 0 && Date.now() < deadline) {
      for (const base of [...pending]) if ((await get(base, shop.apiKey)).status === 401) pending.delete(base);
      await sleep(100);
    }
    t.same([...pending], [], 'no instance still accepts the old key');
  });

  t.test('no overbooking across instances: exactly `capacity` of 24 simultaneous bookings succeed', async (t) => {
    const booking = await admin.createIntegration({ garageSlug: garage.slug, name: 'booking', sync: ['appointments'], webhookUrl: null });
    const headers = { 'x-api-key': booking.apiKey };
    const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10);
    const availability = await http(`${lb}/api/public/appointments/availability?from=${from}&to=${to}`, { headers });
    t.equal(availability.status, 200);
    const slot = (availability.json().data as { startsAt: string; remaining: number }[]).find((s) => s.remaining >= 2);
    if (!slot) throw new Error(`no free slot between ${from} and ${to}: ${availability.body}`);

    const attempts = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        http(`${lb}/api/public/appointments`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ startsAt: slot.startsAt, customer: { name: `Customer ${i}`, email: `c${i}@example.com` } }),
        }),
      ),
    );
    const created = attempts.filter((r) => r.status === 201);
    t.equal(created.length, slot.remaining, `exactly ${slot.remaining} bookings`);
    t.same(
      attempts.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.json().code}`),
      Array.from({ length: 24 - slot.remaining }, () => '409 SLOT_FULL'),
      'every other one: 409 SLOT_FULL',
    );
    t.ok(new Set(attempts.map((r) => r.headers['x-served-by'])).size > 1, 'served by several instances');
    const stored = await db.handle.db.selectFrom('appointments').select('id').execute();
    t.equal(stored.length, slot.remaining, 'and exactly that many stored');
  });

  t.test('per-IP rate limits hold across instances: 6 leads from one client give 5 then 429', async (t) => {
    const client = clientAddress();
    const responses: HttpResponse[] = [];
    const options: HttpOptions = {
      method: 'POST',
      localAddress: client,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vehicleId: garage.vehicleIds['V-1'], name: 'Jeanne', email: 'jeanne@example.com', consent: true }),
    };
    // Through the balancer and straight to each instance in turn: round robin alone, interleaved with the background
    // load, could send all six to one instance. Straight or through haproxy (one trusted hop), the client IP is the same.
    for (const base of [lb, ...direct, lb, ...direct].slice(0, 6)) responses.push(await http(`${base}/api/public/fleet/lead`, options));
    t.same(
      responses.map((r) => r.status),
      [201, 201, 201, 201, 201, 429],
    );
    const limited = responses[5] as HttpResponse;
    t.equal(limited.json().code, 'RATE_LIMITED');
    t.ok(Number(limited.headers['retry-after']) > 0, 'with Retry-After');
    const other = await http(`${lb}/api/public/fleet/lead`, { ...options, localAddress: clientAddress() });
    t.equal(other.status, 201, 'another client is not limited');
  });

  t.test('Redis lost: every instance stays ready and the service goes on through the balancer, unlimited', async (t) => {
    await redisProxy.cut();
    for (const base of direct) {
      t.ok(
        await eventually(async () => {
          const res = await http(`${base}/health/ready`);
          return res.status === 200 && res.json().checks.redis === 'down';
        }),
        `${base} reports Redis down and stays ready`,
      );
    }
    const servedBy = async () => String((await http(`${lb}/health/live`)).headers['x-served-by']);
    t.ok((await servedBy()).startsWith('api'), 'haproxy keeps every instance in rotation');
    const client = clientAddress();
    const leads: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await http(`${lb}/api/public/fleet/lead`, {
        method: 'POST',
        localAddress: client,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ vehicleId: garage.vehicleIds['V-1'], name: 'Paul', phone: '+33612345678', consent: true }),
      });
      leads.push(res.status);
    }
    t.same(leads, [201, 201, 201, 201, 201, 201, 201], 'limited endpoints keep serving without the limit');

    await redisProxy.restore();
    for (const base of direct) {
      t.ok(await eventually(async () => (await http(`${base}/health/ready`)).json().checks.redis === 'up'), `${base} sees Redis again by itself`);
    }
  });

  t.test('/metrics is for scrapers on the instances, not for the public side of the balancer', async (t) => {
    t.equal((await http(`${lb}/metrics`)).status, 404);
    t.equal((await http(`${direct[0]}/metrics`)).status, 404, "nor on an instance's public port");
    const line = apis[0]?.lines.find((l) => /^Metrics listening at /.test(String(l.msg)));
    const scrapeUrl = String(line?.msg).replace('Metrics listening at ', '');
    t.match((await http(scrapeUrl)).body, /http_requests_total\{/, 'scrapers read it on the metrics listener');
  });

  t.test('the load in the background saw no error', async (t) => {
    await load.stop();
    t.same(load.errors, [], 'no connection failed');
    const served = [...load.statuses].reduce((sum, [, n]) => sum + n, 0);
    t.ok(served > 0, `${served} requests served`);
    t.same([...load.statuses.keys()], [200], 'every one a 200');
  });

  t.test('SIGTERM on every instance: each exits 0', async (t) => {
    t.same(await Promise.all(apis.map((api) => api.stop())), apis.map(() => 0));
  });
});
