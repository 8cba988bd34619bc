import t from 'tap';
import { testClock } from '@garage/domain/testing';
import { cachedLookup } from '../src/composition/cached-lookup.js';

const TTL = 5_000;

/** A lookup that knows `valid-*` keys and counts the queries it answers. */
const world = (options: { maxEntries?: number; maxNegativeEntries?: number } = {}) => {
  const clock = testClock('2026-11-30T08:00:00Z');
  const queries: string[] = [];
  const lookup = cachedLookup(
    async (key: string) => {
      queries.push(key);
      return key.startsWith('valid-') ? { key } : null;
    },
    { ttlMs: TTL, clock, ...options },
  );
  const advance = (ms: number) => clock.advance(ms);
  return { lookup, queries, advance };
};

t.test('a flood of unknown keys never evicts a key that was found', async (t) => {
  const { lookup, queries } = world({ maxEntries: 100, maxNegativeEntries: 50 });
  for (let i = 0; i < 10; i += 1) t.same(await lookup(`valid-${i}`), { key: `valid-${i}` });
  let misses = 0;
  for (let i = 0; i < 20_000; i += 1) if ((await lookup(`random-${i}`)) === null) misses += 1;
  t.equal(misses, 20_000);
  queries.length = 0;
  for (let i = 0; i < 10; i += 1) await lookup(`valid-${i}`);
  t.same(queries, [], 'every valid key is still served from the cache');
});

t.test('found keys are bounded as an LRU: the least recently used goes first', async (t) => {
  const { lookup, queries } = world({ maxEntries: 3 });
  for (const key of ['valid-a', 'valid-b', 'valid-c']) await lookup(key);
  await lookup('valid-a');
  await lookup('valid-d');
  queries.length = 0;
  await lookup('valid-a');
  await lookup('valid-c');
  await lookup('valid-d');
  t.same(queries, [], 'recently used ones stayed');
  await lookup('valid-b');
  t.same(queries, ['valid-b'], 'the least recently used was evicted');
});

t.test('both kinds expire after the TTL, on the injected clock', async (t) => {
  const { lookup, queries, advance } = world();
  await lookup('valid-a');
  await lookup('nope');
  advance(TTL - 1);
  await lookup('valid-a');
  await lookup('nope');
  t.same(queries, ['valid-a', 'nope'], 'within the TTL: cached');
  advance(2);
  await lookup('valid-a');
  await lookup('nope');
  t.same(queries, ['valid-a', 'nope', 'valid-a', 'nope'], 'past the TTL: looked up again (a revocation takes effect)');
});

t.test('concurrent lookups of one key share one query; a failed lookup is not cached', async (t) => {
  const clock = testClock('2026-11-30T08:00:00Z');
  let calls = 0;
  let fail = true;
  // The query answers once the test opens it: the three lookups below are all waiting for it by then.
  let answer = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const lookup = cachedLookup(
    async (key: string) => {
      calls += 1;
      await answered;
      if (fail) throw new Error('database down');
      return key;
    },
    { ttlMs: TTL, clock },
  );
  const waiting = [lookup('k'), lookup('k'), lookup('k')];
  answer();
  const results = await Promise.allSettled(waiting);
  t.equal(calls, 1);
  t.ok(results.every((r) => r.status === 'rejected'));
  fail = false;
  t.equal(await lookup('k'), 'k', 'the next call queries again');
  t.equal(calls, 2);
});
