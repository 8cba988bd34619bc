import { randomInt } from 'node:crypto';
import { connectRedis, waitForRedis } from '@garage/redis';
import t from 'tap';
import { RATE_LIMIT_NAMESPACE } from '../src/plugins/rate-limits.js';
import { build, ENCRYPTION_KEY, LogCapture, seedGarage } from './helper.js';
import { eventually, startApi } from './processes.js';
import { startRedisServer } from './redis-server.js';
import { requireTestRedis } from '@garage/redis/testing';

const sharedRedisUrl = await requireTestRedis();

const UNKNOWN_VEHICLE = '00000000-0000-4000-8000-000000000000';
const LEAD = JSON.stringify({ vehicleId: UNKNOWN_VEHICLE, name: 'A', email: 'a@example.com', consent: true });

/**
 * Client addresses of this run only (the API processes trust X-Forwarded-For), so that other test files and earlier
 * runs using the same Redis never share a counter with this one; their keys are deleted at the end.
 */
const NET = `10.${randomInt(256)}.${randomInt(256)}`;

const forgetCounters = async () => {
  const redis = connectRedis({ url: sharedRedisUrl });
  try {
    if (!(await waitForRedis(redis))) throw new Error(`Redis at ${sharedRedisUrl} does not answer`);
    const keys = await redis.keys(`${RATE_LIMIT_NAMESPACE}*${NET}.*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
};

t.test('two API processes sharing one Redis', async (t) => {
  // Teardowns run last-in first-out: this one after the processes and the database are gone.
  t.teardown(forgetCounters);
  const { admin, db } = await build(t);
  const garage = await seedGarage(admin);
  const env = {
    DATABASE_URL: db.url,
    ENCRYPTION_KEY,
    REDIS_URL: sharedRedisUrl,
    // The test is the proxy: X-Forwarded-For is trusted from loopback only.
    TRUST_PROXY: '127.0.0.1,::1',
    LOG_LEVEL: 'info',
    MIGRATE_ON_START: 'false',
    DELIVER_WEBHOOKS: 'false',
  };
  const urls = (await Promise.all([startApi(t, env), startApi(t, env)])).map((api) => `http://127.0.0.1:${api.port}`);
  const instance = (i: number) => urls[i % 2] as string;

  t.test('enforce one limit between them: 5 in total, not 5 each', async (t) => {
    const ip = `${NET}.1`;
    const results: [number, string | null][] = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${instance(i)}/api/public/fleet/lead`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: LEAD,
      });
      results.push([res.status, res.headers.get('ratelimit-remaining')]);
      if (res.status === 429) t.equal(((await res.json()) as { code: string }).code, 'RATE_LIMITED');
      else await res.arrayBuffer();
    }
    t.same(results, [
      [404, '4'],
      [404, '3'],
      [404, '2'],
      [404, '1'],
      [404, '0'],
      [429, '0'],
      [429, '0'],
    ]);
  });

  t.test('concurrent accepts and refuses of one quote: exactly one wins', async (t) => {
    const { token } = await admin.createQuote({
      garageSlug: garage.slug,
      customerName: 'Race',
      lines: [{ label: 'Service', quantity: 1, unitPriceCents: 10000, vatRate: 20 }],
    });
    // Distinct client addresses, so that the rate limit (5 per IP) does not mask the outcome.
    const responses = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const decision = i % 2 === 0 ? 'accept' : 'refuse';
        const res = await fetch(`${instance(i >> 1)}/api/public/quotes/${token}/${decision}`, {
          method: 'POST',
          headers: { 'x-forwarded-for': `${NET}.${100 + i}` },
        });
        return { decision, status: res.status, body: (await res.json()) as { code?: string; status?: string } };
      }),
    );
    const winners = responses.filter((r) => r.status === 200);
    t.equal(winners.length, 1, 'one 200');
    t.same(
      responses.filter((r) => r.status !== 200).map((r) => [r.status, r.body.code]),
      Array.from({ length: 19 }, () => [409, 'QUOTE_ALREADY_PROCESSED']),
      'every other request: 409 QUOTE_ALREADY_PROCESSED',
    );
    const read = await fetch(`${instance(0)}/api/public/quotes/${token}`);
    const { data } = (await read.json()) as { data: { status: string } };
    t.equal(data.status, winners[0]?.body.status, 'the quote holds the winning decision');
  });
});

t.test('Redis outage: limits fail open, readiness reports it and stays 200, enforcement resumes by itself', async (t) => {
  const redisServer = await startRedisServer(t);
  const logs = new LogCapture();
  const { app } = await build(t, { logs, env: { REDIS_URL: redisServer.url } });
  await app.ready();
  const ip = '192.0.2.10';
  const lead = async () => {
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/public/fleet/lead', remoteAddress: ip, headers: { 'content-type': 'application/json' }, payload: LEAD });
    return { status: res.statusCode, ms: performance.now() - started };
  };
  const ready = async () => (await app.inject({ method: 'GET', url: '/health/ready' })).statusCode;
  const outageWarnings = () => logs.lines.filter((l) => l.level === 40 && /Redis unreachable/.test(String(l.msg)));
  const recoveries = () => logs.lines.filter((l) => /Redis reachable again/.test(String(l.msg)));

  t.equal(await ready(), 200);
  const before = [];
  for (let i = 0; i < 6; i++) before.push((await lead()).status);
  t.same(before, [404, 404, 404, 404, 404, 429], 'enforced while Redis is up');

  await redisServer.kill();
  const redis = app.redis;
  if (!redis) throw new Error('REDIS_URL is set, so the app has a Redis client');
  let connectionErrors = 0;
  redis.on('error', () => connectionErrors++);
  const during = [];
  for (let i = 0; i < 5; i++) during.push(await lead());
  t.same(during.map((r) => r.status), [404, 404, 404, 404, 404], 'served, not limited, while Redis is down');
  t.ok(during.every((r) => r.ms < 1000), `no request waited a second on Redis (${during.map((r) => Math.round(r.ms)).join(', ')} ms)`);
  const withoutRedis = await app.inject({ method: 'GET', url: '/health/ready' });
  t.equal(withoutRedis.statusCode, 200, 'still ready without Redis: the instance can serve, only unlimited');
  t.same(withoutRedis.json(), { status: 'ok', checks: { postgres: 'up', redis: 'down', draining: false } }, 'the outage is reported');
  // Reconnection attempts fail several times a second; the warning must not follow each of them.
  t.ok(await eventually(async () => connectionErrors >= 3), `several connection failures (${connectionErrors})`);
  t.equal(outageWarnings().length, 1, 'one warning for the outage');

  await redisServer.restart();
  t.ok(
    await eventually(async () => (await app.inject({ method: 'GET', url: '/health/ready' })).json().checks.redis === 'up'),
    'Redis reported up again once it is back',
  );
  t.equal(await ready(), 200);
  t.equal(recoveries().length, 1, 'the recovery is logged');
  const after = [];
  for (let i = 0; i < 6; i++) after.push((await lead()).status);
  t.same(after, [404, 404, 404, 404, 404, 429], 'enforced again, without a restart of the app');
  t.equal(outageWarnings().length, 1);

  // A hung Redis keeps the connection open and answers nothing: each command gives up after its own timeout.
  redisServer.pause();
  const hung = [];
  for (let i = 0; i < 3; i++) hung.push(await lead());
  t.same(hung.map((r) => r.status), [404, 404, 404], 'served, not limited, while Redis hangs');
  t.ok(hung.every((r) => r.ms < 1000), `no request waited a second on a hung Redis (${hung.map((r) => Math.round(r.ms)).join(', ')} ms)`);
  const whileHung = await app.inject({ method: 'GET', url: '/health/ready' });
  t.same([whileHung.statusCode, whileHung.json().checks.redis], [200, 'down'], 'ready, with Redis reported down, while it hangs');
  t.ok(await eventually(async () => outageWarnings().length === 2), 'the hang is reported as a new outage');
  redisServer.resume();
  t.ok(await eventually(async () => recoveries().length === 2), 'and its end too');
});
