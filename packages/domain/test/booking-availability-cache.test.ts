import t from 'tap';
import { bookingWorld, outcome, parseWeeklyHours } from './support.js';

// Availability as the API wires it: each day's starts kept until the day's version moves (cached-available-days.ts).
// The world's clock: Monday 2026-11-30 09:00 in Paris. Hours: mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00.

const TUESDAY = '2026-12-01';
const WEDNESDAY = '2026-12-02';
const at = (date: string, hhmm: string) => `${date}T${hhmm}:00+01:00`;
/** Remaining places by local start time, for a compact comparison. */
const remaining = (starts: { startsAt: string; remaining: number }[]) => Object.fromEntries(starts.map((s) => [s.startsAt.slice(11, 16), s.remaining]));

t.test('a cancellation frees its start at once, though the day was computed before', async (t) => {
  const w = bookingWorld();
  const first = await w.book({ startsAt: at(TUESDAY, '09:00') });
  await w.book({ startsAt: at(TUESDAY, '09:00') });
  const third = await w.book({ startsAt: at(TUESDAY, '10:00') });
  t.equal(remaining(await w.list(TUESDAY))['09:00'], undefined, 'full');
  await w.cancel(first.id);
  t.equal(remaining(await w.list(TUESDAY))['09:00'], 1, 'cancelled by the connector: listed again');
  await w.book({ startsAt: at(TUESDAY, '09:00') });
  t.equal(remaining(await w.list(TUESDAY))['09:00'], undefined, 'and taken again');
  t.equal(remaining(await w.list(TUESDAY))['10:00'], 1);
  await w.setStatus(third.id, 'cancelled');
  t.equal(remaining(await w.list(TUESDAY))['10:00'], 2, 'cancelled by the garage: freed too');
});

t.test('a reschedule frees the old start and takes the new one, on both dates', async (t) => {
  const w = bookingWorld();
  const moving = await w.book({ startsAt: at(TUESDAY, '09:00') });
  await w.book({ startsAt: at(TUESDAY, '09:00') });
  t.equal(remaining(await w.list(TUESDAY, WEDNESDAY))['09:00'], 2, "Wednesday's 09:00 is free");
  t.equal(remaining(await w.list(TUESDAY))['09:00'], undefined);
  await w.reschedule(moving.id, at(WEDNESDAY, '09:00'));
  t.equal(remaining(await w.list(TUESDAY))['09:00'], 1);
  t.equal(remaining(await w.list(WEDNESDAY))['09:00'], 1);
  await w.reschedule(moving.id, at(WEDNESDAY, '10:00'), 60);
  t.same([remaining(await w.list(WEDNESDAY))['09:00'], remaining(await w.list(WEDNESDAY))['10:00']], [2, 1], 'moved within the day');
});

t.test('a closure added after the days were computed empties its dates; removed, they come back', async (t) => {
  const w = bookingWorld();
  const before = await w.list(TUESDAY, WEDNESDAY);
  w.closures.push({ id: 'added', garageId: w.garage.id, from: WEDNESDAY, to: WEDNESDAY, reason: null });
  t.same(await w.list(TUESDAY, WEDNESDAY), before.filter((s) => s.startsAt.startsWith(TUESDAY)));
  w.closures.pop();
  t.same(await w.list(TUESDAY, WEDNESDAY), before);
});

t.test("a change of the garage's capacity, hours, slot length or zone is seen by the very next request", async (t) => {
  const w = bookingWorld();
  await w.book({ startsAt: at(TUESDAY, '09:00') });
  t.equal(remaining(await w.list(TUESDAY))['09:00'], 1);
  w.garage.booking.capacity = 3;
  t.equal(remaining(await w.list(TUESDAY))['09:00'], 2, 'capacity');
  w.garage.booking.weeklyHours = parseWeeklyHours('tue 09:00-10:00');
  t.same(Object.keys(remaining(await w.list(TUESDAY))), ['09:00', '09:30'], 'hours');
  w.garage.booking.slotMinutes = 60;
  t.same(remaining(await w.list(TUESDAY)), { '09:00': 2 }, 'slot length');
  w.garage.booking.timezone = 'Europe/London';
  t.same((await w.list(TUESDAY)).map((s) => s.startsAt), ['2026-12-01T09:00:00+00:00'], 'zone');
  t.same(await w.list(TUESDAY), await w.listFresh(TUESDAY));
});

t.test('notice and horizon are applied per request to the kept days: time passing needs no recomputation', async (t) => {
  const w = bookingWorld();
  t.equal((await w.list('2026-11-30'))[0]?.startsAt, at('2026-11-30', '11:00'), 'now 09:00 + 120 minutes');
  const reads = w.placeReads.length;
  w.clock.advance(60 * 60_000);
  t.equal((await w.list('2026-11-30'))[0]?.startsAt, at('2026-11-30', '14:00'), 'an hour later, 12:00 + 120 minutes: after lunch');
  t.equal(w.placeReads.length, reads, 'from the kept day');
  t.same(await w.list('2027-01-30'), [], 'beyond the horizon (the last date is 2027-01-29)');
  w.clock.advance(24 * 60 * 60_000);
  t.equal((await w.list('2027-01-30'))[0]?.startsAt, at('2027-01-30', '09:00'), 'a day later, Saturday 2027-01-30 is within it');
  t.same(await w.list('2026-11-30'), [], 'and yesterday has nothing left');
});

t.test('the cost follows the days that changed: an unchanged range reads no places, a booking recomputes its date', async (t) => {
  const w = bookingWorld();
  const first = await Promise.all([1, 2, 3].map(() => w.list('2026-12-01', '2026-12-31')));
  t.same(w.placeReads, ['2026-12-01..2026-12-31'], 'the first requests compute the month in one read, together');
  t.same(first[1], first[0]);
  await w.list('2026-12-01', '2026-12-31');
  await w.list('2026-12-07', '2026-12-09');
  t.same(w.placeReads.length, 1, 'then the kept days answer');
  await w.book({ startsAt: at('2026-12-08', '09:00') });
  await w.list('2026-12-01', '2026-12-31');
  t.same(w.placeReads.slice(1), ['2026-12-08..2026-12-08'], 'a booking: its date alone');
  await w.list('2026-12-01', '2026-12-31', 60);
  t.same(w.placeReads.slice(2), ['2026-12-01..2026-12-31'], 'another duration is another answer');
  await w.book({ startsAt: at('2026-12-03', '09:00') });
  await w.book({ startsAt: at('2026-12-10', '09:00') });
  await w.list('2026-12-01', '2026-12-31');
  t.same(w.placeReads.slice(3), ['2026-12-03..2026-12-10'], 'stale dates are read together, first to last');
  const outcomes = await Promise.all([1, 2, 3].map(() => outcome(w.book({ startsAt: at('2026-12-15', '09:00') }))));
  t.same(outcomes.sort(), ['OK', 'OK', 'SLOT_FULL']);
  await w.list('2026-12-01', '2026-12-31');
  t.same(w.placeReads.slice(4), ['2026-12-15..2026-12-15'], 'the two bookings that committed moved the version; the refused one did not');
  await w.list('2026-12-01', '2026-12-31');
  t.same(w.placeReads.length, 5);
});

/** A small deterministic generator, so that the agreement below explores varied sequences reproducibly. */
const lcg = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

t.test('the cached answer equals a fresh computation through random bookings, cancellations, reschedules and time', async (t) => {
  for (const seed of [1, 2, 3]) {
    const w = bookingWorld({ booking: { capacity: 2, minNoticeMinutes: 60 } });
    const random = lcg(seed);
    const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(random() * items.length)];
    const ranges: [string, string][] = [['2026-11-30', '2026-12-06'], ['2026-12-02', '2026-12-03'], ['2026-11-30', '2026-12-30']];
    const durations = [30, 60, 90];
    let compared = 0;
    for (let step = 0; step < 120; step++) {
      const action = random();
      const open = w.store.committed().filter((a) => a.status === 'booked' || a.status === 'confirmed');
      if (action < 0.45) {
        const duration = pick(durations) as number;
        const offered = await w.list('2026-11-30', '2026-12-06', duration);
        const start = pick(offered);
        if (start) await outcome(w.book({ startsAt: start.startsAt, durationMinutes: duration }));
      } else if (action < 0.6 && open.length > 0) {
        await outcome(w.cancel((pick(open) as (typeof open)[number]).id));
      } else if (action < 0.7 && open.length > 0) {
        await outcome(w.setStatus((pick(open) as (typeof open)[number]).id, pick(['confirmed', 'completed', 'no_show', 'cancelled']) as string));
      } else if (action < 0.85 && open.length > 0) {
        const offered = await w.list('2026-11-30', '2026-12-06', 60);
        const start = pick(offered);
        if (start) await outcome(w.reschedule((pick(open) as (typeof open)[number]).id, start.startsAt, 60));
      } else {
        w.clock.advance(Math.floor(random() * 6 * 60) * 60_000);
      }
      const [from, to] = pick(ranges) as [string, string];
      const duration = pick(durations) as number;
      t.same(await w.list(from, to, duration), await w.listFresh(from, to, duration), `seed ${seed}, step ${step}: ${from}..${to}, ${duration} min`);
      compared += 1;
    }
    t.ok(w.store.committed().length > 10, `seed ${seed}: ${w.store.committed().length} appointments, ${compared} comparisons`);
  }
});
