import { testClock } from '@garage/domain/testing';
import t, { type Test } from 'tap';
import { connectRedis, waitForRedis } from '../src/connection.js';
import { watchRedis } from '../src/health.js';
import { requireTestRedis } from '../src/testing/index.js';

const url = await requireTestRedis();

const connected = async (t: Test) => {
  const redis = connectRedis({ url, onError: (err) => t.comment(`redis: ${err.message}`) });
  t.teardown(() => redis.disconnect());
  t.equal(await waitForRedis(redis), true);
  return redis;
};

t.test('an outage is reported when it starts, then at most once per interval, and its end once', async (t) => {
  const redis = await connected(t);
  const clock = testClock(0);
  const downs: string[] = [];
  let ups = 0;
  const stop = watchRedis(redis, { onDown: (err) => downs.push(err.message), onUp: () => ups++, repeatMs: 60_000, heartbeatMs: 3_600_000, now: () => clock.nowMs() });
  t.teardown(stop);

  // ioredis reports each failed reconnection attempt as an `error` event; these stand for such attempts.
  redis.emit('ready');
  t.equal(ups, 0, 'no recovery without an outage');
  redis.emit('error', new Error('connect ECONNREFUSED'));
  clock.set(1000);
  redis.emit('error', new Error('connect ECONNREFUSED again'));
  clock.set(59_999);
  redis.emit('error', new Error('still refused'));
  t.same(downs, ['connect ECONNREFUSED'], 'one report for the first minute');
  clock.set(61_000);
  redis.emit('error', new Error('a minute later'));
  t.same(downs, ['connect ECONNREFUSED', 'a minute later'], 'a reminder once the interval has passed');

  redis.emit('ready');
  redis.emit('ready');
  t.equal(ups, 1, 'the recovery is reported once');
  clock.set(62_000);
  redis.emit('error', new Error('down again'));
  t.equal(downs.at(-1), 'down again', 'a new outage is reported at once');

  stop();
  redis.emit('ready');
  t.equal(ups, 1, 'nothing is reported once stopped');
});

t.test('the heartbeat ends an outage that no reconnection announces', async (t) => {
  const redis = await connected(t);
  let ups = 0;
  const stop = watchRedis(redis, { onDown: () => {}, onUp: () => ups++, heartbeatMs: 20 });
  t.teardown(stop);
  // As after a hung server: commands failed, the connection itself never dropped.
  redis.emit('error', new Error('Command timed out'));
  for (let i = 0; i < 100 && ups === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(ups, 1, 'a PING that answers is a recovery');
});
