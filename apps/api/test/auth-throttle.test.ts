import { randomInt } from 'node:crypto';
import t from 'tap';
import type { App } from '../src/index.js';
import { build, seedGarage } from './helper.js';
import { requireTestRedis } from '@garage/redis/testing';

const REDIS_URL = await requireTestRedis();

/** A client address of this run alone: counters in the shared test Redis outlive a run by up to a minute. */
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const BAD_KEY = '0123456789abcdef0123456789abcdef';

const products = (app: App, remoteAddress: string, key = BAD_KEY) =>
  app.inject({ method: 'GET', url: '/api/public/products', remoteAddress, headers: { 'x-api-key': key } });

t.test('in memory (no REDIS_URL)', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);

  t.test('more than 30 failed authentications in a minute: 429 for refused keys until the minute ends', async (t) => {
    const ip = randomIp();

    for (let i = 1; i <= 31; i += 1) {
      const res = await products(app, ip);
      if (res.statusCode !== 401) t.fail(`failure #${i} is still a 401, got ${res.statusCode}`);
    }
    const limited = await products(app, ip);
    t.equal(limited.statusCode, 429, 'the request after the 31st 401');
    t.same(Object.keys(limited.json()).sort(), ['code', 'error']);
    t.equal(limited.json().code, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    t.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After within the minute: ${limited.headers['retry-after']}`);

    const missing = await app.inject({ method: 'GET', url: '/api/public/stock', remoteAddress: ip });
    t.equal(missing.statusCode, 429, 'a missing key on every key-authenticated endpoint');
    t.equal((await products(app, ip, garage.keys.all)).statusCode, 200, 'a valid key from that address is served');
    t.equal((await products(app, ip, garage.keys.stock)).statusCode, 401, 'a valid key whose toggle is off keeps its 401');
    t.equal((await products(app, ip)).statusCode, 429, 'and refused keys are still refused after a valid one');
    t.equal((await products(app, randomIp())).statusCode, 401, 'other addresses are not affected');
    const fleet = await app.inject({ method: 'GET', url: `/api/public/fleet?garageSlug=${garage.slug}`, remoteAddress: ip });
    t.equal(fleet.statusCode, 200, 'public endpoints are not throttled');
  });

  t.test('a neighbour in the same IPv6 /64 cannot lock a connector out', async (t) => {
    const prefix = `2001:db8:${randomInt(65536).toString(16)}:${randomInt(65536).toString(16)}`;
    for (let i = 1; i <= 40; i += 1) await products(app, `${prefix}::${i.toString(16)}`);
    t.equal((await products(app, `${prefix}::ffff`)).statusCode, 429, 'the /64 is throttled for refused keys');
    t.equal((await products(app, `${prefix}::ffff`, garage.keys.all)).statusCode, 200, 'the connector in it is served');
  });

  t.test('a valid key whose toggle is off is not a failed authentication', async (t) => {
    const ip = randomIp();
    for (let i = 1; i <= 40; i += 1) {
      const res = await products(app, ip, garage.keys.stock);
      if (res.statusCode !== 401) t.fail(`request #${i}: ${res.statusCode}`);
    }
    t.equal((await products(app, ip)).statusCode, 401, 'an unknown key after them is not throttled');
  });

  t.test('successful authentications do not count', async (t) => {
    const ip = randomIp();
    for (let i = 0; i < 40; i += 1) {
      const res = await products(app, ip, garage.keys.all);
      if (res.statusCode !== 200) t.fail(`request #${i + 1}: ${res.statusCode}`);
    }
    t.equal((await products(app, ip)).statusCode, 401);
  });
});

t.test('with REDIS_URL the failures of every instance count together', async (t) => {
  const first = await build(t, { env: { REDIS_URL } });
  const garage = await seedGarage(first.admin);
  // A second instance on the same database and Redis.
  const second = await build(t, { env: { REDIS_URL }, databaseUrl: () => first.db.url });
  const ip = randomIp();
  for (let i = 0; i < 31; i += 1) {
    const res = await products(i % 2 === 0 ? first.app : second.app, ip);
    if (res.statusCode !== 401) t.fail(`failure #${i + 1} is a 401, got ${res.statusCode}`);
  }
  // The 31st failure, counted by `first`, crossed the limit: `first` refuses that address's refused keys.
  t.equal((await products(first.app, ip)).statusCode, 429, 'the instance that saw the limit crossed');
  t.equal((await products(first.app, ip, garage.keys.all)).statusCode, 200, 'and still serves a valid key');
  // `second` saw only 15 of the failures; its next one is refused from the shared count.
  t.equal((await products(second.app, ip)).statusCode, 429, 'the next failure on another instance');
  t.equal((await products(second.app, ip, garage.keys.all)).statusCode, 200, 'a valid key there too');
});

t.test('a valid key makes no Redis round trip for the throttle; failures do (docs/reference/contract.md §4.5)', async (t) => {
  const { app, admin } = await build(t, { env: { REDIS_URL } });
  const garage = await seedGarage(admin);
  const redis = app.redis;
  if (!redis) throw new Error('the app has no Redis client');
  let throttleCommands = 0;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((command: { args: unknown[] }, ...rest: unknown[]) => {
    if (command.args.some((arg) => String(arg).includes('failed-auth'))) throttleCommands += 1;
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  }) as typeof redis.sendCommand;
  const ip = randomIp();

  for (let i = 0; i < 20; i += 1) t.equal((await products(app, ip, garage.keys.all)).statusCode, 200);
  const fleet = await app.inject({ method: 'GET', url: '/api/public/fleet', remoteAddress: ip, headers: { 'x-api-key': garage.keys.all } });
  t.equal(fleet.statusCode, 200);
  t.equal(throttleCommands, 0, 'no command for valid keys');
  t.equal((await products(app, ip)).statusCode, 401);
  t.ok(throttleCommands >= 1, `a failure is counted in Redis (${throttleCommands} commands)`);
  for (let i = 0; i < 31; i += 1) await products(app, ip);
  t.equal((await products(app, ip)).statusCode, 429, 'the address is throttled');
  const before = throttleCommands;
  t.equal((await products(app, ip, garage.keys.all)).statusCode, 200, 'a valid key from it is served');
  t.equal(throttleCommands, before, 'without a command');
});

t.test('fleet requests that carry a key are throttled like other key checks', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);
  const ip = randomIp();
  const fleet = (key?: string) =>
    app.inject({
      method: 'GET',
      url: key === undefined ? `/api/public/fleet?garageSlug=${garage.slug}` : '/api/public/fleet',
      remoteAddress: ip,
      headers: key === undefined ? {} : { 'x-api-key': key },
    });
  for (let i = 1; i <= 31; i += 1) {
    const res = await fleet(BAD_KEY);
    if (res.statusCode !== 401) t.fail(`failure #${i} is still a 401, got ${res.statusCode}`);
  }
  t.equal((await fleet(BAD_KEY)).statusCode, 429, 'the failure after the 31st');
  t.equal((await products(app, ip)).statusCode, 429, 'and on every key-authenticated endpoint');
  t.equal((await fleet(garage.keys.all)).statusCode, 200, 'a valid key on the fleet from that address is served');
  t.equal((await products(app, ip, garage.keys.all)).statusCode, 200, 'as on every key-authenticated endpoint');
  t.equal((await fleet()).statusCode, 200, 'the public garageSlug is not key-authenticated: not throttled');
});

t.test('Redis unreachable: authentication fails open', async (t) => {
  // Nothing listens on port 1: every Redis command fails at once.
  const { app, admin } = await build(t, { env: { REDIS_URL: 'redis://127.0.0.1:1' } });
  const garage = await seedGarage(admin);
  const ip = randomIp();
  const statuses = new Set<number>();
  for (let i = 0; i < 35; i += 1) statuses.add((await products(app, ip)).statusCode);
  t.same([...statuses], [401], 'no 429 while failures cannot be counted');
  t.equal((await products(app, ip, garage.keys.all)).statusCode, 200, 'valid keys keep working');
  const ready = await app.inject({ method: 'GET', url: '/health/ready' });
  t.equal(ready.statusCode, 200, 'a Redis outage keeps the instance in the load balancer');
  t.same(ready.json().checks, { postgres: 'up', redis: 'down', draining: false }, 'and readiness reports it');
});
