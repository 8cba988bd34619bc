import { DateTime, FixedOffsetZone, type Zone } from 'luxon';
import { growingLru } from '../kernel/growing-lru.js';
import { LOCAL_DATE, type Checker } from '../kernel/validation.js';

/**
 * Local dates and wall-clock times in a garage's IANA zone, computed by Luxon, with plain arithmetic where one offset
 * holds all day (Luxon costs some microseconds per call: IANA offsets go through Intl).
 *
 * The pure functions below hold no state. What is worth keeping between requests, each day's facts and the lists
 * of dates of a range, is kept by a `LocalTime` that a composition root makes once (`makeLocalTime`) and hands to
 * the use cases that read local time: a process decides how much memory it spends, and a test starts empty.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** A `YYYY-MM-DD` that names a day of the calendar (not 30 February): the day arithmetic gives it back unchanged. */
export const isLocalDate = (value: unknown): value is string => {
  if (typeof value !== 'string' || !LOCAL_DATE.test(value)) return false;
  const day = utcMidnight(value, 0);
  return day.getUTCFullYear() === Number(value.slice(0, 4)) && day.getUTCMonth() + 1 === Number(value.slice(5, 7)) && day.getUTCDate() === Number(value.slice(8, 10));
};

export const checkLocalDate = (value: unknown, check: Checker, path: string): value is string => {
  if (isLocalDate(value)) return true;
  check.fail(path, 'must be a date YYYY-MM-DD');
  return false;
};

/**
 * RFC 3339 in the zone's offset at that instant, always as `±hh:mm`: Luxon writes `Z` for a fixed zero offset but
 * `+00:00` for an IANA zone at zero, and a Lisbon or London garage must read the same either way.
 */
export const toLocalRfc3339 = (instant: Date, zone: Zone | string): string => {
  const iso = DateTime.fromMillis(instant.getTime(), { zone }).toISO({ suppressMilliseconds: true }) as string;
  return iso.endsWith('Z') ? `${iso.slice(0, -1)}+00:00` : iso;
};

const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * `toLocalRfc3339` for an offset that holds all day: plain arithmetic, where Luxon costs some microseconds per call
 * and availability writes two per candidate start. Milliseconds are written when there are any, as Luxon does. What
 * arithmetic does not cover (an offset with seconds, a year outside 0000–9999) goes through Luxon.
 */
export const fixedOffsetRfc3339 = (ms: number, offsetMinutes: number): string => {
  const wall = new Date(ms + offsetMinutes * MINUTE_MS).toISOString();
  if (!Number.isInteger(offsetMinutes) || wall.length !== 24) {
    return toLocalRfc3339(new Date(ms), FixedOffsetZone.instance(offsetMinutes));
  }
  const abs = Math.abs(offsetMinutes);
  return `${wall.slice(0, ms % 1000 === 0 ? 19 : 23)}${offsetMinutes < 0 ? '-' : '+'}${twoDigits(Math.floor(abs / 60))}:${twoDigits(abs % 60)}`;
};

/**
 * `date` plus whole calendar days, by the UTC calendar's arithmetic (every booking and every availability day did it
 * through Luxon, ~3 % of a booking's CPU); out-of-range days roll over (`2026-02-30` + 0 is `2026-03-02`). Years
 * outside 0000–9999, which ISO writes with a sign, go through Luxon.
 */
/** The UTC midnight of `date` plus whole days; `setUTCFullYear`, unlike `Date.UTC`, keeps years 0–99 as written. */
const utcMidnight = (date: string, days: number): Date => {
  const day = new Date(0);
  day.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + days);
  return day;
};

export const addCalendarDays = (date: string, days: number): string => {
  const day = utcMidnight(date, days);
  const year = day.getUTCFullYear();
  if (year >= 0 && year <= 9999) return day.toISOString().slice(0, 10);
  return DateTime.fromISO(date, { zone: 'utc' }).plus({ days }).toISODate() as string;
};

/**
 * The ISO weekday of a date, 1 (Monday) to 7 (Sunday), by the UTC calendar's arithmetic: every booking asks it of its
 * day, and Luxon took some microseconds to answer.
 */
export const isoWeekday = (date: string): number => ((utcMidnight(date, 0).getUTCDay() + 6) % 7) + 1;

/**
 * RFC 3339 with a mandatory offset and no hour 24. The offset's hours are not bounded (`+99:00` names an instant, as
 * Luxon reads it too); the day is checked against the calendar by `parseRfc3339`.
 */
const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt]([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):([0-5]\d))$/;

/** An instant written as RFC 3339, and whether it was written on a whole minute (seconds and fraction all zeros). */
export interface WrittenInstant {
  ms: number;
  wholeMinute: boolean;
  /** The date it was written with, `YYYY-MM-DD`, and its offset in minutes east of UTC (`Z`: 0). */
  date: string;
  offsetMinutes: number;
}

/**
 * The instant an RFC 3339 time with an offset names (`2026-12-01T09:00:00+01:00`), or null for any other text and for
 * a day the calendar does not have (30 February). By the UTC calendar's arithmetic: Luxon's parser cost a booking
 * 50–170 µs of API CPU. A fraction counts to the millisecond; digits past the third are dropped.
 */
export const parseRfc3339 = (text: unknown): WrittenInstant | null => {
  const found = typeof text === 'string' ? RFC3339.exec(text) : null;
  if (found === null) return null;
  const [, date = '', hours, minutes, seconds, fraction = '', sign, offsetHours, offsetMinutes] = found;
  if (!isLocalDate(date)) return null;
  const wallMs =
    utcMidnight(date, 0).getTime() + ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(fraction.slice(0, 3).padEnd(3, '0'));
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  return { ms: wallMs - offset * MINUTE_MS, wholeMinute: seconds === '00' && /^0*$/.test(fraction), date, offsetMinutes: offset };
};

/** The dates a database date column holds. */
const FIRST_DATE = '0001-01-01';
const LAST_DATE = '9999-12-31';

/** Whether a local date, as `LocalTime.localReadingAt` writes it, lies within the years a database date holds. */
export const isStorableDate = (date: string): boolean => LOCAL_DATE.test(date) && date >= FIRST_DATE;

/**
 * A date as the contract takes one (docs/reference/contract.md §1): `YYYY-MM-DD`, a day of the calendar, in the years
 * 0001–9999 that a database date holds.
 */
export const isContractDate = (value: string): boolean => isLocalDate(value) && value >= FIRST_DATE;

/**
 * A time as the contract takes one (§1): RFC 3339 with an offset of at most ±23:59, on a date `isContractDate` takes;
 * no hour 24, no leap second, no suffix.
 */
export const isContractDateTime = (value: string): boolean => {
  const written = parseRfc3339(value);
  return written !== null && written.date >= FIRST_DATE && Math.abs(written.offsetMinutes) < DAY_MS / MINUTE_MS;
};

/**
 * The local dates that the instant `startsAt` writes falls on in any garage's zone, before that zone is known: the
 * date it is written with, two days either way (zones' offsets span −12:00 to +14:00, a request's −23:59 to +23:59).
 * Null when `startsAt` does not begin with a valid date (`parse` then rejects it). Kept within the years 0001–9999,
 * which is all a database date holds: a start written on 0001-01-01 reads no closure of year 0.
 */
export const localDatesAround = (startsAt: unknown): { from: string; to: string } | null => {
  const written = typeof startsAt === 'string' ? startsAt.slice(0, 10) : null;
  if (!isLocalDate(written)) return null;
  const [from, to] = [addCalendarDays(written, -2), addCalendarDays(written, 2)];
  return { from: from < FIRST_DATE ? FIRST_DATE : from, to: to.length > 10 || to > LAST_DATE ? LAST_DATE : to };
};

/** A local date of a zone, as numbers: its first instant, and its offset if one offset holds all day from 00:00. */
export interface DayFacts {
  startMs: number;
  fixedOffset: number | null;
}

/**
 * A day that starts at 00:00 and ends with the offset it started with has no transition (no zone has two transitions
 * in one day that cancel out): its offset holds all day, 24 hours long.
 */
const computeDayFacts = (zone: string, date: string): DayFacts => {
  const start = DateTime.fromISO(date, { zone }).startOf('day');
  const next = DateTime.fromISO(addCalendarDays(date, 1), { zone }).startOf('day');
  const lastInstant = DateTime.fromMillis(next.toMillis() - 1, { zone });
  const fixed = start.hour === 0 && start.minute === 0 && lastInstant.offset === start.offset;
  return { startMs: start.toMillis(), fixedOffset: fixed ? start.offset : null };
};

/** A local date on which one offset holds all day, and its first instant. */
interface FixedDay {
  readonly date: string;
  readonly offset: number;
  readonly startMs: number;
}

/** An instant's local date in any zone is its UTC date or a neighbour; the UTC date is the likeliest. */
const DATE_SHIFTS = [0, 1, -1] as const;

/** Local time with what it keeps between calls: each day's facts and each range's dates. */
export interface LocalTime {
  /** The first instant of the local date `date` in `zone`, and its offset when one holds all day. */
  dayFacts(zone: string, date: string): DayFacts;
  /** The local date of an instant in an IANA zone (every booking asks it for now, the horizon's today). */
  localDateAt(ms: number, zone: string): string;
  /**
   * What the zone's clock reads at an instant: its local date (as Luxon writes it, so with a sign and six digits
   * outside the years 0000–9999) and the minutes since midnight of its wall reading (`hour * 60 + minute`).
   */
  localReadingAt(ms: number, zone: string): { date: string; minutes: number };
  /**
   * `toLocalRfc3339` for an IANA zone: by arithmetic on a day with one offset, through Luxon otherwise. Every
   * appointment written for a response or an event has four such times.
   */
  localRfc3339(instant: Date, zone: string): string;
  /** Every date `from`..`to` inclusive (valid dates), by the UTC calendar, shared and never changed. */
  calendarDates(from: string, to: string): readonly string[];
}

export interface LocalTimeLimits {
  /**
   * Day facts kept, by zone and date (a few dozen bytes each): they follow from the zone's rules alone, and each
   * costs Luxon several Intl calls, which every booking paid for its day and every availability for each of its days.
   */
  days?: number;
  /**
   * Ranges of dates kept: connectors ask for the same few ranges again and again, and writing each date of a range
   * (a `Date` and its ISO string per date) was a tenth of a kept availability answer's CPU.
   */
  ranges?: number;
}

export const makeLocalTime = ({ days = 4096, ranges = 1024 }: LocalTimeLimits = {}): LocalTime => {
  const facts = growingLru<string, DayFacts>(days);
  const dateRanges = growingLru<string, readonly string[]>(ranges);

  const dayFacts = (zone: string, date: string): DayFacts => {
    const key = `${zone}\n${date}`;
    let found = facts.get(key);
    if (found === undefined) {
      found = computeDayFacts(zone, date);
      facts.set(key, found);
    }
    return found;
  };

  /**
   * The day of one offset each zone was last found on: a request asks about instants of one day, a booking eight
   * times (its start, its window, the times of its answer), and each search made a date's text and its key.
   */
  const lastFixedDay = new Map<string, FixedDay>();

  /**
   * The local date, offset and first instant of the day of an instant in an IANA zone when that day has one offset
   * (its local date is its UTC date or a neighbour); null on a transition day, which needs Luxon.
   */
  const fixedDayAt = (ms: number, zone: string): FixedDay | null => {
    const last = lastFixedDay.get(zone);
    if (last !== undefined && last.startMs <= ms && ms < last.startMs + DAY_MS) return last;
    for (const shift of DATE_SHIFTS) {
      const date = new Date(ms + shift * DAY_MS).toISOString().slice(0, 10);
      if (!LOCAL_DATE.test(date)) break;
      const { startMs, fixedOffset } = dayFacts(zone, date);
      if (fixedOffset !== null && startMs <= ms && ms < startMs + DAY_MS) {
        const day = { date, offset: fixedOffset, startMs };
        lastFixedDay.set(zone, day);
        return day;
      }
    }
    return null;
  };

  return {
    dayFacts,
    localDateAt: (ms, zone) => fixedDayAt(ms, zone)?.date ?? (DateTime.fromMillis(ms, { zone }).toISODate() as string),
    localReadingAt(ms, zone) {
      const day = fixedDayAt(ms, zone);
      // One offset all day from midnight on: the clock reads the time elapsed since the day's start.
      if (day !== null) return { date: day.date, minutes: Math.floor((ms - day.startMs) / MINUTE_MS) };
      const local = DateTime.fromMillis(ms, { zone });
      return { date: local.toISODate() as string, minutes: local.hour * 60 + local.minute };
    },
    localRfc3339(instant, zone) {
      const ms = instant.getTime();
      const day = fixedDayAt(ms, zone);
      return day ? fixedOffsetRfc3339(ms, day.offset) : toLocalRfc3339(instant, zone);
    },
    calendarDates(from, to) {
      const key = `${from}|${to}`;
      let dates = dateRanges.get(key);
      if (dates === undefined) {
        const start = Date.parse(`${from}T00:00:00Z`);
        const count = Math.round((Date.parse(`${to}T00:00:00Z`) - start) / DAY_MS) + 1;
        dates = Array.from({ length: Math.max(0, count) }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
        dateRanges.set(key, dates);
      }
      return dates;
    },
  };
};
