import t from 'tap';
import { connectRedis, pingRedis, waitForRedis } from '../src/connection.js';
import { requireTestRedis } from '../src/testing/index.js';

const url = await requireTestRedis();

t.test('a live Redis answers the readiness ping', async (t) => {
  const errors: Error[] = [];
  const redis = connectRedis({ url, onError: (e) => errors.push(e) });
  t.teardown(() => redis.disconnect());
  t.equal(await waitForRedis(redis), true);
  await t.resolves(pingRedis(redis));
  t.same(errors, []);
});

t.test('a dead Redis fails a command within a second instead of queueing it', async (t) => {
  const errors: Error[] = [];
  const redis = connectRedis({ url: 'redis://127.0.0.1:1', onError: (e) => errors.push(e) });
  t.teardown(() => redis.disconnect());
  t.equal(await waitForRedis(redis, 200), false, 'start-up does not wait longer than asked');
  const started = Date.now();
  await t.rejects(pingRedis(redis));
  t.ok(Date.now() - started < 1000, 'failed fast');
  t.ok(errors.length > 0, 'the refused connection is passed to onError');
});
