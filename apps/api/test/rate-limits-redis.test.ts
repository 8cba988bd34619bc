import { sleep } from '@garage/domain/testing';
import { startRedisServer } from '@garage/redis/testing';
import t from 'tap';
import { build, LogCapture } from './helper.js';

/**
 * The app in-process on a redis-server of the test's own, which the test kills and freezes. Two API processes sharing
 * one Redis are packages/system-tests' (rate-limits-shared-redis.test.ts).
 */

const UNKNOWN_VEHICLE = '00000000-0000-4000-8000-000000000000';
const LEAD = JSON.stringify({ vehicleId: UNKNOWN_VEHICLE, name: 'A', email: 'a@example.com', consent: true });

/** Polls `probe` every 100 ms until it returns true, at most 50 times; returns whether it did. */
const eventually = async (probe: () => Promise<boolean>): Promise<boolean> => {
  for (let i = 0; i < 50; i += 1) {
    if (await probe().catch(() => false)) return true;
    await sleep(100);
  }
  return false;
};

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

  const redisErrors = async () => (await app.metrics.registry.getSingleMetric('redis_connection_errors_total')?.get())?.values[0]?.value ?? 0;
  const errorsBefore = await redisErrors();
  await redisServer.kill();
  const during = [];
  for (let i = 0; i < 5; i++) during.push(await lead());
  t.same(during.map((r) => r.status), [404, 404, 404, 404, 404], 'served, not limited, while Redis is down');
  t.ok(during.every((r) => r.ms < 1000), `no request waited a second on Redis (${during.map((r) => Math.round(r.ms)).join(', ')} ms)`);
  const withoutRedis = await app.inject({ method: 'GET', url: '/health/ready' });
  t.equal(withoutRedis.statusCode, 200, 'still ready without Redis: the instance can serve, only unlimited');
  t.same(withoutRedis.json(), { status: 'ok', checks: { postgres: 'up', redis: 'down', draining: false } }, 'the outage is reported');
  // Reconnection attempts fail several times a second; the warning must not follow each of them.
  t.ok(await eventually(async () => (await redisErrors()) >= errorsBefore + 3), 'several connection failures, each counted in redis_connection_errors_total');
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
