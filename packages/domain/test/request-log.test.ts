import t from 'tap';
import { makePurgeRequestLog, parseStatusFilter, ValidationError } from '../src/index.js';
import { testClock } from '../src/testing/index.js';

t.test('a status filter is one status or a class', async (t) => {
  t.same(parseStatusFilter('404'), { min: 404, max: 404 });
  t.same(parseStatusFilter('4xx'), { min: 400, max: 499 });
  for (const bad of ['4x', '600', '40', 'xx', '4XX']) t.throws(() => parseStatusFilter(bad), ValidationError, bad);
});

t.test('the purge deletes batch after batch until a batch comes back short, before the retention only', async (t) => {
  const clock = testClock(new Date('2026-11-27T12:00:00Z'));
  const cutoffs: Date[] = [];
  const left = [3, 3, 1];
  const purge = makePurgeRequestLog({
    log: { purgeBefore: async (cutoff, batchSize) => (cutoffs.push(cutoff), Math.min(batchSize, left.shift() ?? 0)) },
    clock,
    retentionDays: 7,
    batchSize: 3,
  });
  t.equal(await purge(), 7);
  t.equal(cutoffs.length, 3);
  t.same(cutoffs[0], new Date('2026-11-20T12:00:00Z'));
});
