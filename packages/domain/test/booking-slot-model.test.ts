import fc from 'fast-check';
import t from 'tap';
import { DateTime, FixedOffsetZone } from 'luxon';
import {
  makeDayModel,
  makeSlotModel,
  parseWeeklyHours,
  DEFAULT_BOOKING,
  Checker,
  addCalendarDays,
  checkLocalDate,
  fixedOffsetRfc3339,
  isoWeekday,
  makeLocalTime,
  parseRfc3339,
  toLocalRfc3339,
  type BookingSettings,
} from './support.js';
import { bookingWorld, outcome } from '../src/testing/index.js';

const time = makeLocalTime();
const { calendarDates, localDateAt, localReadingAt, localRfc3339 } = time;

const settings = (over: Partial<BookingSettings> & { hours?: string } = {}): BookingSettings => {
  const { hours, ...rest } = over;
  return { ...DEFAULT_BOOKING, weeklyHours: parseWeeklyHours(hours ?? 'mon-sun 00:00-23:59'), minNoticeMinutes: 0, horizonDays: 3660, ...rest };
};
const starts = (s: BookingSettings, date: string, duration = s.slotMinutes) => makeDayModel(s, time).starts(date, duration).map((c) => c.startsAt);

t.test('Europe/Paris 2026-03-29 (23 h): no 02:xx slot, offsets switch from +01:00 to +02:00, none lost', async (t) => {
  const s = settings({ hours: 'sun 00:00-06:00' });
  t.same(starts(s, '2026-03-29'), [
    '2026-03-29T00:00:00+01:00', '2026-03-29T00:30:00+01:00', '2026-03-29T01:00:00+01:00', '2026-03-29T01:30:00+01:00',
    '2026-03-29T03:00:00+02:00', '2026-03-29T03:30:00+02:00', '2026-03-29T04:00:00+02:00', '2026-03-29T04:30:00+02:00',
    '2026-03-29T05:00:00+02:00', '2026-03-29T05:30:00+02:00',
  ]);
  const [last30] = makeDayModel(s, time).starts('2026-03-29', 60).filter((c) =>
    c.startsAt.startsWith('2026-03-29T01:30'),
  );
  t.equal(last30?.endsAt, '2026-03-29T03:30:00+02:00', 'a 60-minute appointment lasts 60 real minutes across the gap');
  t.same(last30?.slots.map((d) => d.toISOString()), ['2026-03-29T00:30:00.000Z', '2026-03-29T01:00:00.000Z']);
});

t.test('Europe/Paris 2026-10-25 (25 h): both 02:00 and both 02:30 are distinct slots, in time order', async (t) => {
  const s = settings({ hours: 'sun 00:00-06:00' });
  const list = starts(s, '2026-10-25');
  t.same(list, [
    '2026-10-25T00:00:00+02:00', '2026-10-25T00:30:00+02:00', '2026-10-25T01:00:00+02:00', '2026-10-25T01:30:00+02:00',
    '2026-10-25T02:00:00+02:00', '2026-10-25T02:30:00+02:00', '2026-10-25T02:00:00+01:00', '2026-10-25T02:30:00+01:00',
    '2026-10-25T03:00:00+01:00', '2026-10-25T03:30:00+01:00', '2026-10-25T04:00:00+01:00', '2026-10-25T04:30:00+01:00',
    '2026-10-25T05:00:00+01:00', '2026-10-25T05:30:00+01:00',
  ]);
  const instants = list.map((iso) => Date.parse(iso));
  t.ok(instants.every((ms, i) => i === 0 || ms - (instants[i - 1] as number) === 30 * 60_000), 'every slot is 30 real minutes after the previous');
  const [repeated] = makeDayModel(s, time).starts('2026-10-25', 30).filter(
    (c) => c.startsAt === '2026-10-25T02:30:00+02:00',
  );
  t.equal(repeated?.endsAt, '2026-10-25T02:00:00+01:00');
});

t.test('slot counts of a whole day: 47 on a normal Sunday, 45 on the 23-hour day, 49 on the 25-hour day', async (t) => {
  const s = settings({ hours: 'sun 00:00-23:30' });
  t.equal(starts(s, '2026-03-22').length, 47);
  t.equal(starts(s, '2026-03-29').length, 45);
  t.equal(starts(s, '2026-10-25').length, 49);
  t.equal(starts(s, '2026-11-01').length, 47);
  const ordinary = settings({ hours: 'sun 08:00-18:00' });
  t.equal(starts(ordinary, '2026-03-29').length, 20, 'a transition at night does not touch daytime slots');
  t.equal(starts(ordinary, '2026-10-25').length, 20);
});

t.test('an opening boundary inside the gap is the transition; inside the repeated hour, its first occurrence', async (t) => {
  t.same(starts(settings({ hours: 'sun 02:30-05:00' }), '2026-03-29'), [
    '2026-03-29T03:00:00+02:00', '2026-03-29T03:30:00+02:00', '2026-03-29T04:00:00+02:00', '2026-03-29T04:30:00+02:00',
  ]);
  t.same(starts(settings({ hours: 'sun 01:00-02:30' }), '2026-03-29'), [
    '2026-03-29T01:00:00+01:00', '2026-03-29T01:30:00+01:00',
  ]);
  t.same(starts(settings({ hours: 'sun 02:30-04:00' }), '2026-10-25'), [
    '2026-10-25T02:30:00+02:00', '2026-10-25T02:00:00+01:00', '2026-10-25T02:30:00+01:00',
    '2026-10-25T03:00:00+01:00', '2026-10-25T03:30:00+01:00',
  ]);
  t.same(starts(settings({ hours: 'sun 01:00-02:30' }), '2026-10-25'), [
    '2026-10-25T01:00:00+02:00', '2026-10-25T01:30:00+02:00', '2026-10-25T02:00:00+02:00',
  ]);
});

t.test('a day whose midnight does not exist (America/Santiago 2026-09-06) opens at its first instant', async (t) => {
  const s = settings({ timezone: 'America/Santiago', hours: 'sun 00:00-03:00' });
  t.same(starts(s, '2026-09-06'), [
    '2026-09-06T01:00:00-03:00', '2026-09-06T01:30:00-03:00', '2026-09-06T02:00:00-03:00', '2026-09-06T02:30:00-03:00',
  ]);
});

t.test('New York transitions: 2026-03-08 and 2026-11-01', async (t) => {
  const s = settings({ timezone: 'America/New_York', slotMinutes: 60, hours: 'sun 00:00-04:00' });
  t.same(starts(s, '2026-03-08'), ['2026-03-08T00:00:00-05:00', '2026-03-08T01:00:00-05:00', '2026-03-08T03:00:00-04:00']);
  t.same(starts(s, '2026-11-01'), [
    '2026-11-01T00:00:00-04:00', '2026-11-01T01:00:00-04:00', '2026-11-01T01:00:00-05:00',
    '2026-11-01T02:00:00-05:00', '2026-11-01T03:00:00-05:00',
  ]);
});

/**
 * An independent oracle: scan a local day minute by minute in real time and keep the instants whose wall clock is
 * on the grid. Checks the grid of ordinary days (Luxon's fixed-offset shortcut) and of transition days alike.
 */
t.test('the grid equals a minute-by-minute scan, in many zones, on ordinary and transition days', async (t) => {
  const cases: [string, string[], number[]][] = [
    ['Europe/Paris', ['2026-03-28', '2026-03-29', '2026-03-30', '2026-10-24', '2026-10-25', '2026-12-01'], [15, 30, 60]],
    ['America/New_York', ['2026-03-08', '2026-11-01'], [30, 60]],
    ['America/Santiago', ['2026-04-04', '2026-04-05', '2026-09-05', '2026-09-06'], [30]],
    ['Australia/Lord_Howe', ['2026-04-05', '2026-10-04'], [30]],
    ['Asia/Kolkata', ['2026-06-15'], [30, 60]],
    ['UTC', ['2026-06-15'], [30]],
  ];
  for (const [zone, dates, slotSizes] of cases) {
    for (const date of dates) {
      for (const slotMinutes of slotSizes) {
        const s = settings({ timezone: zone, slotMinutes, hours: 'mon-sun 00:00-23:59' });
        const candidates = makeDayModel(s, time).starts(date, slotMinutes);
        const got = candidates.map((c) => Date.parse(c.startsAt));
        const expected: number[] = [];
        const from = DateTime.fromISO(date, { zone }).startOf('day').minus({ hours: 3 }).toMillis();
        const close = DateTime.fromISO(`${date}T23:59`, { zone }).toMillis();
        for (let ms = from; ms < from + 30 * 3_600_000; ms += 60_000) {
          const local = DateTime.fromMillis(ms, { zone });
          if (local.toISODate() === date && (local.hour * 60 + local.minute) % slotMinutes === 0 && ms + slotMinutes * 60_000 <= close) {
            expected.push(ms);
          }
        }
        t.same(got, expected, `${zone} ${date} ${slotMinutes} min`);
        // Written in the offset the zone has at each instant, as Luxon writes it.
        const written = candidates.flatMap((c) => [c.startsAt, c.endsAt]);
        const byLuxon = candidates.flatMap((c) => [c.start, c.end].map((instant) => toLocalRfc3339(instant, zone)));
        t.same(written, byLuxon, `${zone} ${date} ${slotMinutes} min: offsets`);
      }
    }
  }
});

t.test('a fixed offset is written as Luxon writes it, whatever the instant and offset', async (t) => {
  const instant = fc.oneof(
    fc.integer({ min: 0, max: 4_102_444_800 }).map((s) => s * 1000),
    fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_000 }),
  );
  const offset = fc.oneof(fc.integer({ min: -14 * 60, max: 14 * 60 }), fc.constantFrom(0, -0, 330, 345, -570, 9.35));
  fc.assert(
    fc.property(instant, offset, (ms, minutes) => {
      t.equal(fixedOffsetRfc3339(ms, minutes), toLocalRfc3339(new Date(ms), FixedOffsetZone.instance(minutes)));
    }),
  );
});

t.test('an instant is written in an IANA zone as Luxon writes it, on ordinary and transition days alike', async (t) => {
  const zones = ['Europe/Paris', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC', 'Pacific/Apia', 'Pacific/Kiritimati', 'America/St_Johns', 'Europe/London'];
  // Any instant of 1900–2100, to the millisecond, and instants within minutes of this zone's transitions of 2026.
  const anyInstant = fc.integer({ min: -2_208_988_800_000, max: 4_102_444_800_000 });
  const nearTransition = fc.tuple(fc.integer({ min: 0, max: 365 * 24 }), fc.integer({ min: -90, max: 90 })).map(
    ([hour, minutes]) => Date.UTC(2026, 0, 1) + hour * 3_600_000 + minutes * 60_000,
  );
  fc.assert(
    fc.property(fc.constantFrom(...zones), fc.oneof(anyInstant, nearTransition), (zone, ms) => {
      t.equal(localRfc3339(new Date(ms), zone), toLocalRfc3339(new Date(ms), zone), `${zone} ${new Date(ms).toISOString()}`);
    }),
    { numRuns: 2000 },
  );
  // The instants around Paris' two transitions of 2026, minute by minute.
  for (const around of [Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1)]) {
    for (let ms = around - 3_600_000; ms <= around + 3_600_000; ms += 60_000) {
      t.equal(localRfc3339(new Date(ms), 'Europe/Paris'), toLocalRfc3339(new Date(ms), 'Europe/Paris'));
    }
  }
});

t.test('calendar arithmetic, weekdays, local dates and wall readings agree with Luxon, on ordinary and transition days, in every year', async (t) => {
  const zones = ['Europe/Paris', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC', 'Pacific/Apia', 'Pacific/Kiritimati', 'America/St_Johns', 'Europe/London'];
  const date = fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  fc.assert(
    fc.property(date, fc.integer({ min: -800, max: 800 }), (day, days) => {
      const luxon = DateTime.fromISO(day, { zone: 'utc' });
      // An impossible date (30 February) is no local date: a `from`/`to` naming one is refused with 400.
      const check = new Checker();
      t.equal(checkLocalDate(day, check, '/from'), luxon.isValid, day);
      if (luxon.isValid) t.equal(addCalendarDays(day, days), luxon.plus({ days }).toISODate(), `${day} + ${days}`);
      // Luxon reads a weekday of the years 0–99 through 1900–1999, and 1900 is no leap year: it misreads 29 February
      // of year 0 as 1 March. That day is checked against its real weekday below.
      if (luxon.isValid && day !== '0000-02-29') t.equal(isoWeekday(day), luxon.weekday, `${day}'s weekday`);
    }),
    { numRuns: 3000, examples: [['0000-02-29', -3], ['0000-02-29', 1]] },
  );
  t.equal(isoWeekday('0000-02-29'), 2, "29 February of year 0, a leap year, is a Tuesday");
  t.equal(isoWeekday('0000-03-01'), 3, 'and 1 March of year 0 a Wednesday');
  t.equal(isoWeekday('2000-02-29'), 2, 'as 29 February 2000, 400 years of 146,097 days later');
  const anyInstant = fc.integer({ min: -2_208_988_800_000, max: 4_102_444_800_000 });
  const nearTransition = fc.tuple(fc.integer({ min: 0, max: 365 * 24 }), fc.integer({ min: -90, max: 90 })).map(
    ([hour, minutes]) => Date.UTC(2026, 0, 1) + hour * 3_600_000 + minutes * 60_000,
  );
  fc.assert(
    fc.property(fc.constantFrom(...zones), fc.oneof(anyInstant, nearTransition), (zone, ms) => {
      const luxon = DateTime.fromMillis(ms, { zone });
      t.equal(localDateAt(ms, zone), luxon.toISODate(), `${zone} ${new Date(ms).toISOString()}`);
      t.same(localReadingAt(ms, zone), { date: luxon.toISODate(), minutes: luxon.hour * 60 + luxon.minute }, `${zone} ${new Date(ms).toISOString()}: the clock's reading`);
    }),
    { numRuns: 2000 },
  );
});

t.test('an RFC 3339 time names the instant Luxon reads, and no time names a day the calendar lacks', async (t) => {
  const twoDigits = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const offset = fc.oneof(fc.constantFrom('Z', 'z'), fc.tuple(fc.constantFrom('+', '-'), twoDigits(99), twoDigits(59)).map(([sign, h, m]) => `${sign}${h}:${m}`));
  const written = fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }).map((y) => String(y).padStart(4, '0')),
      twoDigits(13),
      twoDigits(32),
      fc.constantFrom('T', 't'),
      twoDigits(23),
      twoDigits(59),
      twoDigits(59),
      fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,6}$/)),
      offset,
    )
    .map(([y, mo, d, sep, h, mi, s, fraction, off]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${fraction}${off}`);
  fc.assert(
    fc.property(written, (text) => {
      const luxon = DateTime.fromISO(text, { setZone: true });
      const ours = parseRfc3339(text);
      t.equal(ours?.ms ?? null, luxon.isValid ? luxon.toMillis() : null, text);
      if (ours) t.equal(ours.wholeMinute, luxon.second === 0 && luxon.millisecond === 0 && !/\.\d*[1-9]/.test(text), `${text}: on a whole minute`);
    }),
    { numRuns: 3000, examples: [['2028-02-29T09:00:00+01:00'], ['2026-02-29T09:00:00+01:00'], ['0000-02-29T00:00:00Z'], ['2026-12-01T09:00:00.0001+99:59']] },
  );
  for (const text of ['2026-12-01T24:00:00Z', '2026-12-01T09:00:00', '2026-12-01 09:00:00Z', '2026-12-01T09:00Z', '2026-12-01T09:00:00+0100', '+02026-12-01T09:00:00Z', 20261201, null]) {
    t.equal(parseRfc3339(text), null, `${String(text)} is no RFC 3339 time with an offset`);
  }
  t.same(parseRfc3339('2026-12-01T09:00:00.000-01:30'), { ms: Date.UTC(2026, 11, 1, 10, 30), wholeMinute: true, date: '2026-12-01', offsetMinutes: -90 });
  t.same(
    parseRfc3339('2026-12-01T09:00:00.0009+00:00'),
    { ms: Date.UTC(2026, 11, 1, 9), wholeMinute: false, date: '2026-12-01', offsetMinutes: 0 },
    'a fraction under a millisecond is no whole minute',
  );
});

t.test('parse: the 400 rules, in the garage local time', async (t) => {
  const s = settings({ timezone: 'Asia/Kolkata', slotMinutes: 60 });
  const parse = (startsAt: unknown, durationMinutes?: unknown) => {
    const check = new Checker();
    const candidate = makeSlotModel(s, new Date('2026-12-01T00:00:00Z'), time).parse({ startsAt, durationMinutes }, check);
    return { candidate, details: check.details };
  };
  t.ok(parse('2026-12-01T09:00:00+05:30').candidate, 'on the hour in Kolkata');
  t.ok(parse('2026-12-01T03:30:00Z').candidate, 'the same instant written in UTC');
  t.same(parse('2026-12-01T04:00:00Z').details.map((d) => d.path), ['/startsAt'], '09:30 in Kolkata is off a 60-minute grid');
  t.ok(parse('2026-12-01T09:00:00.000+05:30').candidate, 'zero milliseconds are zero seconds');
  t.same(parse('2026-12-01T09:00:00', 120).details.map((d) => d.path), ['/startsAt'], 'an offset is required');
  t.same(parse('2026-12-01T09:00:00+05:30', 90).details.map((d) => d.path), ['/durationMinutes']);
  t.equal(parse('2026-12-01T09:00:00+05:30').candidate?.durationMinutes, 60, 'duration defaults to slotMinutes');
});

t.test('the wall clock, not the UTC date, decides the local date for the horizon', async (t) => {
  // 23:30 UTC on 30 November is already 1 December in Paris: the horizon counts from 1 December.
  const w = bookingWorld({
    now: '2026-11-30T23:30:00Z',
    hours: 'mon-sun 08:00-18:00',
    booking: { horizonDays: 60, minNoticeMinutes: 0 },
  });
  t.equal(await outcome(w.book({ startsAt: '2027-01-30T17:30:00+01:00' })), 'OK');
  t.equal(await outcome(w.book({ startsAt: '2027-01-31T08:00:00+01:00' })), 'DATES_UNAVAILABLE');
  const last = await w.list('2027-01-29', '2027-01-31');
  t.equal(last.at(-1)?.startsAt, '2027-01-30T17:30:00+01:00');
});

t.test('calendarDates walks the calendar as addCalendarDays does, to the last date a database holds', async (t) => {
  t.same(calendarDates('2028-02-27', '2028-03-01'), ['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
  t.same(calendarDates('9999-12-30', '9999-12-31'), ['9999-12-30', '9999-12-31']);
  t.same(calendarDates('0001-01-01', '0001-01-02'), ['0001-01-01', '0001-01-02']);
  t.same(calendarDates('2026-12-02', '2026-12-01'), []);
  // Across DST changes of the host's zone too: the UTC calendar has none.
  const dates = calendarDates('2026-01-01', '2026-12-31');
  t.equal(dates.length, 365);
  t.ok(dates.every((d, i) => i === 0 || addCalendarDays(dates[i - 1] as string, 1) === d));
});
