import { randomInt } from 'node:crypto';
import { createTestDatabase } from '@garage/postgres/testing';
import { connectRedis, waitForRedis } from '@garage/redis';
import { requireTestRedis } from '@garage/redis/testing';
import t from 'tap';
import { adminFor, ENCRYPTION_KEY, seedGarage } from '@garage/composition/testing';
import { startApi } from './support/processes.js';

const sharedRedisUrl = await requireTestRedis();

/** Where the API keeps its per-IP counters in Redis (docs/operators/scaling.md): `garage:rate-limit:*`. */
const RATE_LIMIT_NAMESPACE = 'garage:rate-limit:';

const UNKNOWN_VEHICLE = '00000000-0000-4000-8000-000000000000';
const LEAD = JSON.stringify({ vehicleId: UNKNOWN_VEHICLE, name: 'A', email: 'a@example.com', consent: true });

/**
 * Client addresses of this run only (the API processes trust X-Forwarded-For), so that other test files and earlier
 * runs using the same Redis never share a counter with this one; their keys are deleted at the end.
 */
const NET = `10.${randomInt(256)}.${randomInt(256)}`;

const forgetCounters = async () => {
  const errors: string[] = [];
  const redis = connectRedis({ url: sharedRedisUrl, onError: (err) => errors.push(err.message) });
  try {
    if (!(await waitForRedis(redis))) throw new Error(`Redis at ${sharedRedisUrl} does not answer (${errors.join('; ')})`);
    const keys = await redis.keys(`${RATE_LIMIT_NAMESPACE}*${NET}.*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
};

t.test('two API processes sharing one Redis', async (t) => {
  // Teardowns run last-in first-out: this one after the processes and the database are gone.
  t.teardown(forgetCounters);
  const db = await createTestDatabase('ratelimits');
  t.teardown(() => db.drop());
  const admin = adminFor(db.handle.db);
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
