import { Redis, Cluster } from 'ioredis';
import t from 'tap';
import { startRedisCluster, startRedisServer } from '../src/testing/index.js';

// The private servers other packages' tests take away, freeze and restart: they must do exactly that.

const connect = (url: string) => {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, commandTimeout: 500 });
  redis.on('error', () => {});
  return redis;
};

t.test('a private redis-server answers, forgets its data on restart and hangs while paused', async (t) => {
  const server = await startRedisServer(t);
  const first = connect(server.url);
  t.teardown(() => first.disconnect());
  await first.connect();
  await first.set('k', 'v');
  t.equal(await first.get('k'), 'v');

  server.pause();
  await t.rejects(first.get('k'), /timed out/i, 'a paused server answers nothing');
  server.resume();

  await server.kill();
  await server.restart();
  const second = connect(server.url);
  t.teardown(() => second.disconnect());
  await second.connect();
  t.equal(await second.get('k'), null, 'restarted empty, on the same port');
});

t.test('a private Redis Cluster spreads its slots over its masters', async (t) => {
  const { nodes, seeds } = await startRedisCluster(t, 3);
  t.equal(nodes.length, 3);
  const cluster = new Cluster(seeds.split(',').map((seed) => ({ host: '127.0.0.1', port: Number(seed.split(':')[1]) })));
  t.teardown(() => cluster.disconnect());
  for (const key of ['a', 'b', 'c', 'd']) await cluster.set(key, key);
  t.same(await Promise.all(['a', 'b', 'c', 'd'].map((key) => cluster.get(key))), ['a', 'b', 'c', 'd']);
  t.equal((await cluster.cluster('INFO')).includes('cluster_state:ok'), true);
});
