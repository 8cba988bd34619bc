import { createTestDatabase } from '@garage/postgres/testing';
import { startRedisCluster } from '@garage/redis/testing';
import t from 'tap';
import { ENCRYPTION_KEY } from '@garage/composition/testing';
import { startApi } from './support/processes.js';

const UNKNOWN_VEHICLE = '00000000-0000-4000-8000-000000000000';
const LEAD = JSON.stringify({ vehicleId: UNKNOWN_VEHICLE, name: 'A', email: 'a@example.com', consent: true });

/**
 * REDIS_CLUSTER_NODES (docs/reference/contract.md §6): two API processes share one lead limit through a three-master Redis Cluster
 * (keys hash-tagged by client IP), and losing a master never makes a request wait a second: the counters on it are
 * simply not enforced, as with a Redis outage.
 */
t.test('two instances, one limit, through a Redis Cluster that loses a master', async (t) => {
  const cluster = await startRedisCluster(t, 3);
  const db = await createTestDatabase('rediscluster');
  t.teardown(() => db.drop());
  const env = {
    DATABASE_URL: db.url,
    ENCRYPTION_KEY,
    REDIS_CLUSTER_NODES: cluster.seeds,
    // The test is the proxy: X-Forwarded-For is trusted from loopback only.
    TRUST_PROXY: '127.0.0.1,::1',
    MIGRATE_ON_START: 'false',
    DELIVER_WEBHOOKS: 'false',
  };
  const urls = (await Promise.all([startApi(t, env), startApi(t, env)])).map((api) => `http://127.0.0.1:${api.port}`);
  const lead = async (i: number, ip: string) => {
    const started = performance.now();
    const res = await fetch(`${urls[i % 2]}/api/public/fleet/lead`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: LEAD,
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  };

  for (const ip of ['10.77.0.1', '10.77.0.2', '10.77.0.3']) {
    const statuses = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await lead(i, ip)).status);
    t.same(statuses, [404, 404, 404, 404, 404, 429, 429], `${ip}: 5 in total across both instances, then 429`);
  }

  await cluster.nodes[0]?.kill();
  const after = [];
  for (let i = 0; i < 12; i += 1) after.push(await lead(i, `10.77.1.${i}`));
  t.ok(after.every((r) => r.status === 404 || r.status === 429), `served or limited, never an error: ${after.map((r) => r.status).join(', ')}`);
  t.ok(after.every((r) => r.ms < 1000), `no request waited a second (${after.map((r) => Math.round(r.ms)).join(', ')} ms)`);
});
