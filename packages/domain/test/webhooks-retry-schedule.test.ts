import t from 'tap';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, retryDelay } from './support.js';

t.test('parses durations in ms, s, m and h', async (t) => {
  t.same(parseRetrySchedule('1s,2s,4s'), [1_000, 2_000, 4_000]);
  t.same(parseRetrySchedule(' 100ms , 2m,1h '), [100, 120_000, 3_600_000]);
});

t.test('unset or blank means the contract default', async (t) => {
  const expected = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
  t.same(parseRetrySchedule(undefined), expected);
  t.same(parseRetrySchedule('  '), expected);
  t.same(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE), expected);
});

t.test('a bad value is refused with a message naming the variable and the bad entry', async (t) => {
  for (const bad of ['5', '5x', '1s,,2s', '0s', '-1s', '1.5s', '1s;2s', 's', '1d', '1 s 2']) {
    t.throws(() => parseRetrySchedule(bad), /WEBHOOK_RETRY_SCHEDULE must be .*positive durations/, bad);
  }
  t.throws(() => parseRetrySchedule('1s,oops'), /"oops"/);
});

t.test('the delay after failed attempt n is entry n; after the last there is none', async (t) => {
  const schedule = parseRetrySchedule('1s,2s');
  t.equal(retryDelay(schedule, 1), 1_000);
  t.equal(retryDelay(schedule, 2), 2_000);
  t.equal(retryDelay(schedule, 3), null);
});
