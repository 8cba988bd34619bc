import t, { type Test } from 'tap';
import { DateTime } from 'luxon';
import { DomainError } from './support.js';
import { bookingWorld, GARAGE_ID, OTHER_INTEGRATION_ID, outcome, type WorldOptions } from '../src/testing/index.js';

// The world's clock: Monday 2026-11-30 09:00 in Paris. Hours: mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00.

const paths = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return [err.code, ...(err.details ?? []).map((d) => d.path)];
    throw err;
  }
  return ['OK'];
};

t.test('400 VALIDATION_FAILED: dates, order, range of at most 31 days, duration', async (t) => {
  const w = bookingWorld();
  t.same(await paths(w.list('2026-12-1')), ['VALIDATION_FAILED', '/from', '/to']);
  t.same(await paths(w.list('2026-12-01', '2026-02-30')), ['VALIDATION_FAILED', '/to']);
  t.same(await paths(w.list('tomorrow', '2026-12-01')), ['VALIDATION_FAILED', '/from']);
  t.same(await paths(w.list('2026-12-02', '2026-12-01')), ['VALIDATION_FAILED', '/to']);
  t.same(await paths(w.list('2026-12-01', '2027-01-01')), ['VALIDATION_FAILED', '/to'], '32 days');
  t.same(await paths(w.list('2026-12-01', '2026-12-31')), ['OK'], '31 days');
  t.same(await paths(w.list('2026-12-01', '2026-12-01', 45)), ['VALIDATION_FAILED', '/durationMinutes']);
  t.same(await paths(w.list('2026-12-01', '2026-12-01', 510)), ['VALIDATION_FAILED', '/durationMinutes']);
  t.same(await paths(w.availability({ garageId: 'nope', from: '2026-12-01', to: '2026-12-01' })), ['NOT_FOUND']);
});

t.test('a weekday: every start in order, in the local offset, with its end and remaining places', async (t) => {
  const w = bookingWorld();
  const day = await w.list('2026-12-01');
  t.equal(day.length, 16);
  t.same(day[0], { startsAt: '2026-12-01T08:00:00+01:00', endsAt: '2026-12-01T08:30:00+01:00', remaining: 2 });
  t.same(day.at(-1), { startsAt: '2026-12-01T17:30:00+01:00', endsAt: '2026-12-01T18:00:00+01:00', remaining: 2 });
  const hour = await w.list('2026-12-01', '2026-12-01', 60);
  t.same(
    hour.map((s) => s.startsAt.slice(11, 16)),
    ['08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00', '14:00', '14:30', '15:00', '15:30', '16:00', '16:30', '17:00'],
  );
  t.equal((await w.list('2026-12-01', '2026-12-01', 480)).length, 0, 'no opening interval lasts 8 hours');
  t.equal((await w.list('2026-12-05', '2026-12-06')).length, 6, 'Saturday morning; Sunday closed');
});

t.test('summer dates carry +02:00', async (t) => {
  const w = bookingWorld({ now: '2026-06-01T06:00:00Z' });
  t.same((await w.list('2026-06-02'))[0]?.startsAt, '2026-06-02T08:00:00+02:00');
});

t.test('today starts after the notice; closures, horizon and the past give nothing', async (t) => {
  const w = bookingWorld({ closures: [{ from: '2026-12-02', to: '2026-12-02' }] });
  t.equal((await w.list('2026-11-30'))[0]?.startsAt, '2026-11-30T11:00:00+01:00', 'now 09:00 + 120 minutes');
  t.same(await w.list('2026-12-02'), []);
  t.same(await w.list('2026-11-20', '2026-11-29'), []);
  const edge = await w.list('2027-01-25', '2027-02-05');
  t.equal(edge.at(-1)?.startsAt, '2027-01-29T17:30:00+01:00', 'the horizon ends on 29 January');
});

t.test('remaining is capacity minus the busiest covered slot', async (t) => {
  const w = bookingWorld();
  await w.book({ startsAt: '2026-12-01T09:00:00+01:00', durationMinutes: 60 });
  await w.book({ startsAt: '2026-12-01T09:30:00+01:00' });
  const remaining = async (duration: number) =>
    Object.fromEntries((await w.list('2026-12-01', '2026-12-01', duration)).map((s) => [s.startsAt.slice(11, 16), s.remaining]));
  const half = await remaining(30);
  t.same([half['08:30'], half['09:00'], half['09:30'], half['10:00']], [2, 1, undefined, 2], '09:30 is full');
  const hour = await remaining(60);
  t.same([hour['08:00'], hour['08:30'], hour['09:00'], hour['09:30'], hour['10:00']], [2, 1, undefined, undefined, 2]);
});

/** A small deterministic generator so that the agreement test explores varied orders reproducibly. */
const lcg = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

const fillDay = async (t: Test, options: WorldOptions, day: string, durations: number[], seed: number) => {
  const w = bookingWorld(options);
  const random = lcg(seed);
  const everStarts = new Map<string, number>();
  for (const d of durations) for (const s of await w.list(day, day, d)) everStarts.set(`${d}|${s.startsAt}`, d);
  let bookings = 0;
  let failures = 0;
  for (let i = 0; i < 500; i++) {
    const duration = durations[Math.floor(random() * durations.length)] as number;
    const open = await w.list(day, day, duration);
    if (open.length === 0) {
      if (durations.every((d) => d === duration)) break;
      const others = await Promise.all(durations.map((d) => w.list(day, day, d)));
      if (others.every((o) => o.length === 0)) break;
      continue;
    }
    const pick = open[Math.floor(random() * open.length)];
    if (!pick) continue;
    const result = await outcome(w.book({ startsAt: pick.startsAt, durationMinutes: duration }));
    if (result === 'OK') bookings += 1;
    else failures += 1;
  }
  t.equal(failures, 0, 'every start availability returned was bookable');
  t.ok(bookings > 0, `${bookings} bookings`);
  const after = [...everStarts].map(([k, d]) => ({ startsAt: k.split('|')[1] as string, d }));
  const outcomes = await Promise.all(after.map(({ startsAt, d }) => outcome(w.book({ startsAt, durationMinutes: d }))));
  t.same([...new Set(outcomes)], ['SLOT_FULL'], 'once availability is empty, every start it listed is SLOT_FULL');
  for (const d of durations) t.same(await w.list(day, day, d), [], `nothing left for ${d} minutes`);
  const committed = w.store.committed();
  const capacity = w.garage.booking.capacity;
  const overbooked = committed.some(
    (a) => committed.filter((b) => b.startsAt < a.endsAt && b.endsAt > a.startsAt && b.startsAt <= a.startsAt).length > capacity,
  );
  t.notOk(overbooked, 'no instant holds more than capacity');
  return w;
};

t.test('availability ⇔ booking: book what availability offers until nothing is left', async (t) => {
  const w = await fillDay(t, {}, '2026-12-01', [30], 1);
  t.equal(w.store.committed().length, 32, '16 slots × capacity 2');
  await fillDay(t, {}, '2026-12-01', [60], 2);
  await fillDay(t, { booking: { capacity: 3 } }, '2026-12-01', [30, 60, 90, 120], 3);
  await fillDay(t, { booking: { capacity: 1, slotMinutes: 15 } }, '2026-12-04', [15, 45, 60], 4);
});

t.test('availability ⇔ booking on both Paris DST days, open through the night', async (t) => {
  const options: WorldOptions = {
    now: '2026-03-20T12:00:00Z',
    hours: 'sun 00:00-06:00',
    booking: { horizonDays: 365, capacity: 2 },
  };
  const spring = await fillDay(t, options, '2026-03-29', [30, 60], 5);
  t.ok(spring.store.committed().length > 0);
  await fillDay(t, options, '2026-10-25', [30, 60, 90], 6);
});

/** For every grid reading of a day, each offset it can have, and each duration: booked ⇔ listed. */
t.test('availability ⇔ booking for every candidate start of a day, including both DST days', async (t) => {
  const scenarios: { options: WorldOptions; day: string; durations: number[] }[] = [
    { options: {}, day: '2026-11-30', durations: [30, 60, 120] },
    { options: { closures: [{ from: '2026-12-02', to: '2026-12-02' }] }, day: '2026-12-02', durations: [30] },
    { options: {}, day: '2027-01-29', durations: [30, 240] },
    { options: {}, day: '2027-01-30', durations: [30] },
    {
      options: { now: '2026-03-28T23:20:00Z', hours: 'sun 00:00-06:00,22:00-23:30', booking: { minNoticeMinutes: 30 } },
      day: '2026-03-29',
      durations: [30, 60, 90],
    },
    {
      options: { now: '2026-10-24T22:50:00Z', hours: 'sun 00:00-06:00', booking: { minNoticeMinutes: 30 } },
      day: '2026-10-25',
      durations: [30, 60, 120],
    },
  ];
  for (const { options, day, durations } of scenarios) {
    // Fill one slot and half-fill two others, so that SLOT_FULL takes part as well as the time rules.
    const probe = bookingWorld(options);
    const offered = await probe.list(day, day, 30);
    for (const i of [2, 2, 4]) {
      const startsAt = offered[i]?.startsAt;
      if (startsAt) await probe.book({ startsAt, durationMinutes: 60 }).catch(() => undefined);
    }
    for (const d of durations) {
      const listed = new Set((await probe.list(day, day, d)).map((s) => Date.parse(s.startsAt)));
      let agreed = 0;
      for (let m = 0; m < 1440; m += 30) {
        const local = DateTime.fromISO(day, { zone: 'Europe/Paris' }).set({ hour: Math.floor(m / 60), minute: m % 60 });
        for (const instant of local.getPossibleOffsets()) {
          if (instant.toISODate() !== day || instant.hour * 60 + instant.minute !== m) continue;
          const w = bookingWorld(options);
          // Same occupancy as the probe: replay its bookings.
          for (const a of probe.store.committed()) {
            await w.book({ startsAt: a.startsAt.toISOString(), durationMinutes: a.durationMinutes, principal: { integrationId: a.integrationId, garageId: GARAGE_ID } });
          }
          const booked = (await outcome(w.book({ startsAt: instant.toISO() as string, durationMinutes: d }))) === 'OK';
          t.equal(booked, listed.has(instant.toMillis()), `${instant.toISO()} ${d} min`);
          agreed += 1;
        }
      }
      t.ok(agreed >= 46, `${day}: ${agreed} candidate instants checked for ${d} minutes`);
    }
  }
});

t.test('spring forward in Paris (2026-03-29): no 02:xx slots, offsets change from +01:00 to +02:00', async (t) => {
  const w = bookingWorld({ now: '2026-03-20T00:00:00Z', hours: 'mon-sun 00:00-05:00', booking: { capacity: 1, minNoticeMinutes: 0 } });
  const listed = await w.list('2026-03-29');
  t.same(
    listed.map((s) => s.startsAt),
    [
      '2026-03-29T00:00:00+01:00',
      '2026-03-29T00:30:00+01:00',
      '2026-03-29T01:00:00+01:00',
      '2026-03-29T01:30:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T03:30:00+02:00',
      '2026-03-29T04:00:00+02:00',
      '2026-03-29T04:30:00+02:00',
    ],
  );
  t.equal(listed[3]?.endsAt, '2026-03-29T03:00:00+02:00', 'the 01:30 slot lasts 30 real minutes and ends at 03:00');

  // A 60-minute booking at 01:30 lasts 60 real minutes: it ends at 03:30+02:00 and takes the 03:00 slot too.
  t.equal(await outcome(w.book({ startsAt: '2026-03-29T01:30:00+01:00', durationMinutes: 60 })), 'OK');
  const after = (await w.list('2026-03-29')).map((s) => s.startsAt);
  t.notOk(after.includes('2026-03-29T01:30:00+01:00'));
  t.notOk(after.includes('2026-03-29T03:00:00+02:00'));
  t.ok(after.includes('2026-03-29T03:30:00+02:00'));
  t.equal(await outcome(w.book({ startsAt: '2026-03-29T03:00:00+02:00' })), 'SLOT_FULL', 'the same instant written in summer time');
  t.equal(await outcome(w.book({ startsAt: '2026-03-30T01:30:00+02:00' })), 'OK', 'the next day is +02:00');
});

t.test('fall back in Paris (2026-10-25): 02:00 and 02:30 exist twice, as +02:00 then +01:00', async (t) => {
  const w = bookingWorld({ now: '2026-10-20T00:00:00Z', hours: 'mon-sun 01:00-04:00', booking: { capacity: 1, minNoticeMinutes: 0 } });
  t.same(
    (await w.list('2026-10-25')).map((s) => s.startsAt),
    [
      '2026-10-25T01:00:00+02:00',
      '2026-10-25T01:30:00+02:00',
      '2026-10-25T02:00:00+02:00',
      '2026-10-25T02:30:00+02:00',
      '2026-10-25T02:00:00+01:00',
      '2026-10-25T02:30:00+01:00',
      '2026-10-25T03:00:00+01:00',
      '2026-10-25T03:30:00+01:00',
    ],
  );
  // The two 02:00 are different instants an hour apart: capacity 1 each.
  t.equal(await outcome(w.book({ startsAt: '2026-10-25T02:00:00+02:00' })), 'OK');
  t.equal(await outcome(w.book({ startsAt: '2026-10-25T02:00:00+01:00' })), 'OK');
  const partner = { integrationId: OTHER_INTEGRATION_ID, garageId: GARAGE_ID };
  t.equal(await outcome(w.book({ startsAt: '2026-10-25T00:00:00Z', principal: partner })), 'SLOT_FULL', '02:00+02:00 in UTC');
  t.same(
    (await w.list('2026-10-25', '2026-10-25', 60)).map((s) => [s.startsAt, s.endsAt]),
    [
      ['2026-10-25T01:00:00+02:00', '2026-10-25T02:00:00+02:00'],
      ['2026-10-25T02:30:00+01:00', '2026-10-25T03:30:00+01:00'],
      ['2026-10-25T03:00:00+01:00', '2026-10-25T04:00:00+01:00'],
    ],
    '60 real minutes from 02:30+02:00 would end at 02:30+01:00, and the later 02:00 is taken',
  );
});
