import fc from 'fast-check';
import t from 'tap';
import { isContractDate, isContractDateTime } from '../src/index.js';

/**
 * docs/reference/contract.md §1: the dates and times every input of the API takes, as the API's `date` and `date-time`
 * formats read them. The rule lives here, where the domain reads the same texts.
 */
t.test('a date: YYYY-MM-DD, a day of the calendar, in the years 0001–9999', async (t) => {
  for (const date of ['0001-01-01', '9999-12-31', '2024-02-29', '2000-02-29', '2026-11-29']) t.ok(isContractDate(date), date);
  for (const date of ['0000-12-31', '0000-02-29', '2026-02-29', '2100-02-29', '2026-13-01', '2026-00-10', '2026-04-31', '2026-01-00', '2026-1-01', ' 2026-01-01', '2026-01-01T00:00:00Z', '+02026-01-01', '']) {
    t.notOk(isContractDate(date), date);
  }
});

t.test('a time: RFC 3339 with an offset up to ±23:59, on such a date, without leap seconds or suffixes', async (t) => {
  const taken = [
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '2026-01-01T10:00:00.123456+05:30',
    '2026-01-01t10:00:00z',
    '2026-01-01T10:00:00+23:59',
    '2026-01-01T10:00:00-23:59',
    '2024-02-29T00:00:00-00:00',
  ];
  for (const text of taken) t.ok(isContractDateTime(text), text);
  const refused = [
    '2026-06-30T23:59:60Z',
    '2026-01-01T10:00:00+01:00[Europe/Paris]',
    '0000-12-31T23:59:59+00:00',
    '+275760-09-13T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:60:00Z',
    '2026-01-01T10:00:00+24:00',
    '2026-01-01T10:00:00-24:00',
    '2026-01-01T10:00:00+01:60',
    '2026-01-01T10:00:00+0100',
    '2026-01-01T10:00:00',
    '2026-01-01 10:00:00Z',
    '2026-01-01T10:00Z',
    '2026-01-01T10:00:00.Z',
  ];
  for (const text of refused) t.notOk(isContractDateTime(text), text);
});

t.test('a time is taken exactly when its date is, its clock reads within the day and its offset within ±23:59', async (t) => {
  const twoDigits = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const parts = fc.record({
    year: fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    month: twoDigits(13),
    day: twoDigits(32),
    hour: twoDigits(25),
    minute: twoDigits(60),
    second: twoDigits(60),
    offsetHours: twoDigits(99),
    offsetMinutes: twoDigits(60),
    sign: fc.constantFrom('+', '-'),
  });
  fc.assert(
    fc.property(parts, (p) => {
      const date = `${p.year}-${p.month}-${p.day}`;
      const text = `${date}T${p.hour}:${p.minute}:${p.second}${p.sign}${p.offsetHours}:${p.offsetMinutes}`;
      const expected =
        isContractDate(date) && +p.hour <= 23 && +p.minute <= 59 && +p.second <= 59 && +p.offsetHours <= 23 && +p.offsetMinutes <= 59;
      t.equal(isContractDateTime(text), expected, text);
    }),
    { numRuns: 2000 },
  );
});
