import t from 'tap';
import { cachedAvailableDays, DEFAULT_BOOKING, parseWeeklyHours, type AvailableDay, type AvailableDays, type DayQuery, type Garage } from './support.js';

// The per-instance memory of availability's days, against a fake computation whose calls are counted.

const garage: Garage = {
  id: 'g1',
  slug: 'g1',
  name: 'g1',
  currency: 'EUR',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  booking: { ...DEFAULT_BOOKING, weeklyHours: parseWeeklyHours('mon-fri 08:00-18:00') },
};

/**
 * A computation that answers each day at `current` (its version "now", as a read of the places would see it), after
 * `release` is called when `held` is set, failing while `failing` is set.
 */
const fakeDays = () => {
  const calls: string[][] = [];
  const current = new Map<string, number>();
  const state = { held: false, failing: false, releases: [] as (() => void)[] };
  const inner: AvailableDays = {
    async read(_garage, days: readonly DayQuery[]) {
      calls.push(days.map((d) => d.date));
      if (state.held) await new Promise<void>((resolve) => state.releases.push(resolve));
      if (state.failing) throw new Error('database unreachable');
      return days.map(({ date }): AvailableDay => ({ date, version: current.get(date) ?? 0, starts: [], startMs: [] }));
    },
  };
  const release = () => state.releases.splice(0).forEach((resolve) => resolve());
  return { inner, calls, current, state, release };
};

const q = (date: string, version = 0): DayQuery => ({ date, version });
const MB = 1024 * 1024;

t.test('a day is computed once and served until its version or the settings move', async (t) => {
  const f = fakeDays();
  const days = cachedAvailableDays(f.inner, { maxBytes: MB });
  await days.read(garage, [q('2026-12-01'), q('2026-12-02')], 30);
  await days.read(garage, [q('2026-12-01'), q('2026-12-02')], 30);
  t.same(f.calls, [['2026-12-01', '2026-12-02']]);
  f.current.set('2026-12-02', 1);
  t.same((await days.read(garage, [q('2026-12-01'), q('2026-12-02', 1)], 30)).map((d) => d.version), [0, 1]);
  t.same(f.calls.slice(1), [['2026-12-02']], 'only the day whose version moved');
  await days.read(garage, [q('2026-12-01'), q('2026-12-02', 1)], 60);
  t.same(f.calls.slice(2), [['2026-12-01', '2026-12-02']], 'another duration, other days');
  await days.read({ ...garage, id: 'g2' }, [q('2026-12-01')], 30);
  t.same(f.calls.slice(3), [['2026-12-01']], 'another garage, other days');
  const five = { ...garage, booking: { ...garage.booking, capacity: 5 } };
  await days.read(five, [q('2026-12-01'), q('2026-12-02', 1)], 30);
  t.same(f.calls.slice(4), [['2026-12-01', '2026-12-02']], 'other settings: computed again');
  await days.read({ ...five, booking: { ...five.booking, minNoticeMinutes: 0, horizonDays: 3 } }, [q('2026-12-01'), q('2026-12-02', 1)], 30);
  t.equal(f.calls.length, 5, 'notice and horizon are applied per request, not part of a day');
  const london = { ...five, booking: { ...five.booking, timezone: 'Europe/London' } };
  await days.read(london, [q('2026-12-01')], 30);
  await days.read({ ...london, booking: { ...london.booking, weeklyHours: parseWeeklyHours('mon 09:00-10:00') } }, [q('2026-12-01')], 30);
  await days.read({ ...london, booking: { ...london.booking, slotMinutes: 15 } }, [q('2026-12-01')], 30);
  t.equal(f.calls.length, 8, 'zone, hours, slot length: each computed again');
});

t.test('requests that need the same days at the same versions meanwhile share one computation', async (t) => {
  const f = fakeDays();
  const days = cachedAvailableDays(f.inner, { maxBytes: MB });
  f.state.held = true;
  const first = days.read(garage, [q('2026-12-01'), q('2026-12-02')], 30);
  const second = days.read(garage, [q('2026-12-02'), q('2026-12-03')], 30);
  const other = days.read(garage, [q('2026-12-02', 7)], 30);
  f.state.held = false;
  f.current.set('2026-12-02', 7);
  f.release();
  await Promise.all([first, second, other]);
  f.release();
  const answers = await Promise.all([first, second, other]);
  t.same(f.calls, [['2026-12-01', '2026-12-02'], ['2026-12-03'], ['2026-12-02']], 'the second waited for the first; another version did not');
  t.same(answers.map((a) => a.map((d) => d.date)), [['2026-12-01', '2026-12-02'], ['2026-12-02', '2026-12-03'], ['2026-12-02']]);
  t.same(answers.map((a) => a.map((d) => d.version)), [[0, 7], [7, 0], [7]], 'read after the versions moved: as new as the read, newer than asked is fine');
});

t.test('a failed computation fails every request that waited for it, and the next request computes again', async (t) => {
  const f = fakeDays();
  const days = cachedAvailableDays(f.inner, { maxBytes: MB });
  f.state.held = true;
  f.state.failing = true;
  const first = days.read(garage, [q('2026-12-01')], 30);
  const second = days.read(garage, [q('2026-12-01')], 30);
  f.release();
  await t.rejects(first, { message: 'database unreachable' });
  await t.rejects(second, { message: 'database unreachable' });
  f.state.held = false;
  f.state.failing = false;
  t.same((await days.read(garage, [q('2026-12-01')], 30)).map((d) => d.date), ['2026-12-01']);
  t.equal(f.calls.length, 2);
});

t.test('a day read older than the version the request saw (replicas out of step) is read again', async (t) => {
  const f = fakeDays();
  const days = cachedAvailableDays(f.inner, { maxBytes: MB });
  f.current.set('2026-12-01', 2);
  const answer = days.read(garage, [q('2026-12-01', 3), q('2026-12-02')], 30);
  f.current.set('2026-12-01', 3);
  t.same((await answer).map((d) => d.version), [3, 0]);
  t.same(f.calls, [['2026-12-01', '2026-12-02'], ['2026-12-01']]);
});

t.test('memory is bounded: past maxBytes, the least recently used days are computed again', async (t) => {
  const f = fakeDays();
  // An empty day is estimated at 200 bytes: room for five.
  const days = cachedAvailableDays(f.inner, { maxBytes: 1000 });
  const week = ['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06', '2026-12-07'].map((d) => q(d));
  await days.read(garage, week, 30);
  await days.read(garage, week.slice(5), 30);
  t.same(f.calls.slice(1), [], 'the last ones are kept');
  await days.read(garage, week.slice(0, 2), 30);
  t.same(f.calls.slice(1), [['2026-12-01', '2026-12-02']], 'the first ones were evicted');
});
