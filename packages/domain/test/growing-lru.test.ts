import { LRUCache } from 'lru-cache';
import t from 'tap';
import { makeLocalTime } from '../src/booking/local-time.js';
import { growingLru } from '../src/kernel/growing-lru.js';

t.test('holds at most its entries, the least recently used going first', async (t) => {
  const cache = growingLru<string, number>(3);
  for (const key of ['a', 'b', 'c']) cache.set(key, 1);
  cache.get('a');
  cache.set('d', 1);
  t.same([...cache.keys()].sort(), ['a', 'c', 'd'], "'b', the least recently used, was evicted");
  for (let i = 0; i < 100; i += 1) cache.set(`k${i}`, i);
  t.equal(cache.size, 3, 'never more than its bound');
});

t.test('keeps the options it is given', async (t) => {
  // lru-cache reads a start at 0 as no start at all.
  let now = 1;
  const cache = growingLru<string, true>(10, { ttl: 1000, ttlResolution: 0, perf: { now: () => now } });
  cache.set('a', true);
  now = 1000;
  t.ok(cache.get('a'), 'kept within its ttl');
  now = 1002;
  t.equal(cache.get('a'), undefined, 'gone past its ttl');
});

/**
 * The heap each of `count` things made by `make` takes, kept alive until measured. A collection during the loop can
 * only lower the figure: an upper bound on it holds however the collector runs.
 */
const heapOf = (make: () => unknown, count = 50) => {
  const kept: unknown[] = [];
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i += 1) kept.push(make());
  return (process.memoryUsage().heapUsed - before) / count;
};

t.test('an empty cache takes heap for what it holds, not for what it may hold', async (t) => {
  const options = { ttl: 1000, ttlResolution: 0 };
  const growing = heapOf(() => growingLru<string, string>(20_000, options));
  t.ok(growing < 20_000, `${Math.round(growing)} bytes of heap each`);
  // lru-cache given `max: 20_000` and a ttl reserves four arrays of 20,000 slots, some 640 KB of heap: what the bound
  // above would see of a cache made so. Only reported, as a collection during its loop lowers it by what it frees.
  t.comment(`with max, about ${Math.round(heapOf(() => new LRUCache<string, string>({ max: 20_000, ...options })))} bytes of heap each`);
});

t.test("the calendar's caches (makeLocalTime) take heap for what they hold", async (t) => {
  const each = heapOf(() => makeLocalTime(), 20);
  // With `max`, its two caches of 4,096 and 1,024 entries reserved about 86 KB.
  t.ok(each < 30_000, `${Math.round(each)} bytes of heap each`);
});
