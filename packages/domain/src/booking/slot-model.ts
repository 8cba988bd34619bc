import { LRUCache } from 'lru-cache';
import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { WEEKDAYS, type BookingSettings, type Closure } from '../garages/garage.js';
import { DatesUnavailableError } from '../kernel/errors.js';
import { minutesOfDay } from '../garages/opening-hours.js';
import { LOCAL_DATE, type Checker } from '../kernel/validation.js';

/**
 * The one slot model behind booking and availability (docs/reference/contract.md §4.1). Booking goes through `parse`
 * (the 400 rules) and `resolve` (the 409 rules); availability lists the `starts` of the dates not `closedOn`, cut by
 * the `bookingWindow`: the opening-hours, closure, notice and horizon rules `resolve` applies, written once here, so
 * that a start availability lists is a start booking accepts. The time-independent part (`makeDayModel`) is what
 * availability keeps per day.
 *
 * Time-zone decisions, all in the garage's IANA zone and all computed by Luxon:
 *
 * - "Local minutes since midnight" is the wall-clock reading `hour * 60 + minute`, not the time elapsed since
 *   midnight. The grid is what the garage's clock shows: on 2026-03-29 in Europe/Paris no instant reads
 *   02:00–02:59, so those slots do not exist (01:30+01:00 is followed by 03:00+02:00); on 2026-10-25 both
 *   02:00+02:00 and 02:00+01:00 read 02:00, so both are slots, distinct instants an hour apart.
 * - Durations are elapsed time: a 60-minute appointment lasts 60 real minutes whatever the clock does, and a slot
 *   is `[start, start + slotMinutes)` of real time. Where offsets change by a multiple of `slotMinutes` (whole hours
 *   nearly everywhere), consecutive grid instants are exactly `slotMinutes` apart and a booking covers the grid
 *   instants `start + k * slotMinutes`. Elsewhere (Lord Howe's 30-minute shift with 60-minute slots) occupancy is
 *   still counted by overlap, so nothing overbooks; the grid is just uneven across the shift.
 * - An opening interval `HH:mm–HH:mm` of a local date is the instant range `[first instant of that date whose
 *   clock reads the start or later, first instant whose clock reads the end or later)`. Usually that is the plain
 *   local time; a boundary inside the spring-forward gap becomes the transition instant (the clock jumps past it
 *   there), a boundary inside the repeated autumn hour becomes its first occurrence. The interval stays one
 *   continuous range: a garage opening at 02:30 on 2026-10-25 is open from 02:30+02:00 on, 02:00+01:00 included.
 * - Horizon: a start is beyond the horizon when its local date is after the garage's local today + `horizonDays`
 *   (with 60 days and today 2026-12-01, 2027-01-30 is the last bookable date, at any hour).
 * - Notice: a start earlier than now + `minNoticeMinutes` is unavailable (exactly at that instant is fine).
 */

export const MAX_DURATION_MINUTES = 480;

const MINUTE_MS = 60_000;
const MINUTES_PER_DAY = 1440;

/** What `parse` accepts: the untrusted `startsAt` and `durationMinutes` of a request. */
export interface CandidateInput {
  startsAt: unknown;
  durationMinutes?: unknown;
}

/** A start that passed the 400 rules: well-formed, not in the past, on the grid, with a valid duration. */
export interface Candidate {
  start: Date;
  /** The garage's local date of `start` (`YYYY-MM-DD`), read while parsing. */
  localDate: string;
  durationMinutes: number;
}

/** A bookable `[start, end)` and the slots it covers. */
export interface BookableInterval {
  /** RFC 3339 in the garage's offset at that instant, e.g. `2026-10-25T02:00:00+01:00`. */
  startsAt: string;
  endsAt: string;
  start: Date;
  end: Date;
  /** The garage's local date of `start` (`YYYY-MM-DD`); the whole interval lies on it. */
  localDate: string;
  durationMinutes: number;
  /** Start instants of the covered slots, ascending; each slot lasts `slotMinutes`. */
  slots: Date[];
}

/** How a local date's wall readings map to instants, and how its instants are written. */
interface DayClock {
  /** An instant of the day as RFC 3339 in the garage's offset at that instant (`toLocalRfc3339`). */
  format: (ms: number) => string;
  /** Every instant of the day whose clock reads `minutes` since midnight, ascending. */
  reading: (minutes: number) => number[];
}

/** One local date, resolved to instants. */
interface DayPlan {
  date: string;
  clock: DayClock;
  closed: boolean;
  openings: { open: number; close: number }[];
}

/**
 * The part of the slot model that does not depend on the time: which intervals of a local date lie inside its opening
 * hours. What it says about a date holds until the garage's settings change, so availability can keep it per day.
 */
export interface DayModel {
  /**
   * Every interval of `durationMinutes` starting on the local date `date` inside one of its opening intervals,
   * ascending by start. The date's closures are not looked at (see `closedOn`), nor the notice and the horizon (see
   * `bookingWindow`).
   */
  starts(date: string, durationMinutes: number): BookableInterval[];
  /** The garage's local date (`YYYY-MM-DD`) of an instant. */
  localDateOf(instant: Date): string;
  /** `[start of local date from, start of the local date after to)`: the instants the dates `from`..`to` span. */
  span(from: string, to: string): { from: Date; to: Date };
}

/** What the notice and the horizon leave bookable at one instant: they cut a prefix of time and a suffix of dates. */
export interface BookingWindow {
  /** Epoch milliseconds of the earliest start the notice allows (now + `minNoticeMinutes`). */
  noticeUntilMs: number;
  /** The local date of that instant: every start of an earlier date is too soon. */
  firstDate: string;
  /** The last local date the horizon allows (local today + `horizonDays`). */
  lastDate: string;
}

export interface SlotModel extends DayModel {
  /** The 400 rules of §4.1: records every problem in `check` and returns null when there is any. */
  parse(input: CandidateInput, check: Checker): Candidate | null;
  /** The 409 rules of §4.1: throws `DatesUnavailableError`, or returns the interval and its slots. */
  resolve(candidate: Candidate, closures: readonly Closure[]): BookableInterval;
}

/** A `YYYY-MM-DD` that names a day of the calendar (not 30 February): the day arithmetic gives it back unchanged. */
const isLocalDate = (value: unknown): value is string => typeof value === 'string' && LOCAL_DATE.test(value) && addCalendarDays(value, 0) === value;

/**
 * RFC 3339 with a mandatory offset (and no hour 24, which Luxon would read as the next midnight); Luxon then rejects
 * impossible dates such as February 30.
 */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d)(\.\d+)?([Zz]|[+-]\d{2}:[0-5]\d)$/;

/** Records a problem with `durationMinutes` (default `slotMinutes`) and returns it when valid. */
export const checkBookingDuration = (
  settings: BookingSettings,
  value: unknown,
  check: Checker,
  path = '/durationMinutes',
): number | null => {
  const duration = value ?? settings.slotMinutes;
  if (
    typeof duration !== 'number' ||
    !Number.isInteger(duration) ||
    duration <= 0 ||
    duration > MAX_DURATION_MINUTES ||
    duration % settings.slotMinutes !== 0
  ) {
    check.fail(path, `must be a positive multiple of ${settings.slotMinutes} minutes, at most ${MAX_DURATION_MINUTES}`);
    return null;
  }
  return duration;
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
export const addCalendarDays = (date: string, days: number): string => {
  const day = new Date(0);
  day.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + days);
  const year = day.getUTCFullYear();
  if (year >= 0 && year <= 9999) return day.toISOString().slice(0, 10);
  return DateTime.fromISO(date, { zone: 'utc' }).plus({ days }).toISODate() as string;
};

/** The dates a database date column holds. */
const FIRST_DATE = '0001-01-01';
const LAST_DATE = '9999-12-31';

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
interface DayFacts {
  startMs: number;
  fixedOffset: number | null;
}

/**
 * Day facts by zone and date, shared by every model: they follow from the zone's rules alone, and each costs Luxon
 * several Intl calls (IANA offsets), which every booking paid for its day and every availability for each of its days.
 */
const dayFacts = new LRUCache<string, DayFacts>({ max: 4096 });

/**
 * A day that starts at 00:00 and ends with the offset it started with has no transition (no zone has two transitions
 * in one day that cancel out): its offset holds all day, 24 hours long.
 */
const dayFactsOf = (zone: string, date: string): DayFacts => {
  const key = `${zone}\n${date}`;
  let facts = dayFacts.get(key);
  if (facts === undefined) {
    const start = DateTime.fromISO(date, { zone }).startOf('day');
    const next = DateTime.fromISO(addCalendarDays(date, 1), { zone }).startOf('day');
    const lastInstant = DateTime.fromMillis(next.toMillis() - 1, { zone });
    const fixed = start.hour === 0 && start.minute === 0 && lastInstant.offset === start.offset;
    facts = { startMs: start.toMillis(), fixedOffset: fixed ? start.offset : null };
    dayFacts.set(key, facts);
  }
  return facts;
};

const DAY_MS = 86_400_000;
/** An instant's local date in any zone is its UTC date or a neighbour; the UTC date is the likeliest. */
const DATE_SHIFTS = [0, 1, -1] as const;

/**
 * The local date and offset of an instant in an IANA zone when it falls on a day with one offset (its local date is
 * its UTC date or a neighbour, and the day's facts are cached); null on a transition day, which needs Luxon.
 */
const fixedDayAt = (ms: number, zone: string): { date: string; offset: number } | null => {
  for (const shift of DATE_SHIFTS) {
    const date = new Date(ms + shift * DAY_MS).toISOString().slice(0, 10);
    if (!LOCAL_DATE.test(date)) break;
    const { startMs, fixedOffset } = dayFactsOf(zone, date);
    if (fixedOffset !== null && startMs <= ms && ms < startMs + DAY_MS) return { date, offset: fixedOffset };
  }
  return null;
};

/** The local date of an instant in an IANA zone (every booking asks it for now, the horizon's today). */
export const localDateAt = (ms: number, zone: string): string =>
  fixedDayAt(ms, zone)?.date ?? (DateTime.fromMillis(ms, { zone }).toISODate() as string);

/**
 * `toLocalRfc3339` for an IANA zone: by arithmetic on a day with one offset, through Luxon otherwise. Every
 * appointment written for a response or an event has four such times.
 */
export const localRfc3339 = (instant: Date, zone: string): string => {
  const ms = instant.getTime();
  const day = fixedDayAt(ms, zone);
  return day ? fixedOffsetRfc3339(ms, day.offset) : toLocalRfc3339(instant, zone);
};

/** Whether one of `closures` covers the local date `date`: then nothing can be booked on it. */
export const closedOn = (date: string, closures: readonly Closure[]): boolean => closures.some((c) => c.from <= date && date <= c.to);

/**
 * The notice and horizon rules at `nowMs`, which `resolve` applies too: a start is bookable now when it is one of the
 * `starts` of a date not `closedOn`, no earlier than `noticeUntilMs`, on a date no later than `lastDate`. Cheap, as
 * availability needs it per request.
 */
export const bookingWindow = (settings: BookingSettings, nowMs: number): BookingWindow => {
  const noticeUntilMs = nowMs + settings.minNoticeMinutes * MINUTE_MS;
  return {
    noticeUntilMs,
    firstDate: localDateAt(noticeUntilMs, settings.timezone),
    // Local today plus whole calendar days: date arithmetic on the cached day facts.
    lastDate: addCalendarDays(localDateAt(nowMs, settings.timezone), settings.horizonDays),
  };
};

/** Ranges of dates by `from|to`: connectors ask for the same few ranges again and again. */
const dateRanges = new LRUCache<string, readonly string[]>({ max: 1024 });

/**
 * Every date `from`..`to` inclusive (valid dates), by the UTC calendar, shared and never changed. Kept per range:
 * writing each date of a range (a `Date` and its ISO string per date) was a tenth of a kept availability answer's
 * CPU, for the same 31 strings each time.
 */
export const calendarDates = (from: string, to: string): readonly string[] => {
  const key = `${from}|${to}`;
  let dates = dateRanges.get(key);
  if (dates === undefined) {
    const start = Date.parse(`${from}T00:00:00Z`);
    const count = Math.round((Date.parse(`${to}T00:00:00Z`) - start) / DAY_MS) + 1;
    dates = Array.from({ length: Math.max(0, count) }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
    dateRanges.set(key, dates);
  }
  return dates;
};

/** The time-independent internals shared by `makeDayModel` and `makeSlotModel`. */
const makeCalendar = (settings: BookingSettings) => {
  const zone = settings.timezone;
  const iana = IANAZone.create(zone);
  const slotMs = settings.slotMinutes * MINUTE_MS;

  const wallMinutes = (dt: DateTime) => dt.hour * 60 + dt.minute;
  const factsOf = (date: string) => dayFactsOf(zone, date);

  const wallOf = (date: string, minutes: number) => {
    const [year, month, day] = date.split('-').map(Number);
    return { year, month, day, hour: Math.floor(minutes / 60), minute: minutes % 60 };
  };

  /** Every instant of `date` whose clock reads `minutes`: none in a gap, two in a repeated hour. */
  const instantsReading = (date: string, minutes: number): number[] =>
    DateTime.fromObject(wallOf(date, minutes), { zone })
      .getPossibleOffsets()
      .filter((dt) => dt.toISODate() === date && wallMinutes(dt) === minutes)
      .map((dt) => dt.toMillis())
      .sort((a, b) => a - b);

  /**
   * The garage's clock on `date`. On a day with one offset, readings and offsets are plain arithmetic from its start,
   * at a fraction of Luxon's cost (IANA offsets go through Intl; a busy 31-day availability asked Luxon for some 1,500
   * readings and 1,200 formatted instants). A transition day resolves each reading through the IANA zone.
   */
  const clockOf = (date: string): DayClock => {
    const { startMs, fixedOffset } = factsOf(date);
    if (fixedOffset !== null) {
      // One offset all day from midnight on: the clock reads `minutes` exactly `minutes` after the day's start.
      return { format: (ms) => fixedOffsetRfc3339(ms, fixedOffset), reading: (minutes) => [startMs + minutes * MINUTE_MS] };
    }
    return { format: (ms) => toLocalRfc3339(new Date(ms), iana), reading: (minutes) => instantsReading(date, minutes) };
  };

  /** The first instant of `date` whose clock reads `minutes` or later (see the opening-interval rule above). */
  const boundary = (date: string, clock: DayClock, minutes: number): number => {
    const [first] = clock.reading(minutes);
    if (first !== undefined) return first;
    // In a gap Luxon moves the time forward by the gap's length; the clock passed `minutes` at the transition,
    // which lies within that shift, so walk back to the last instant still reading `minutes` or later.
    const target = DateTime.fromObject(wallOf(date, minutes), { zone: 'utc' }).toFormat("yyyy-MM-dd'T'HH:mm");
    const readsLater = (dt: DateTime) => dt.toFormat("yyyy-MM-dd'T'HH:mm") >= target;
    let dt = DateTime.fromObject(wallOf(date, minutes), { zone });
    for (let prev = dt.minus({ minutes: 1 }); readsLater(prev); prev = prev.minus({ minutes: 1 })) dt = prev;
    return dt.toMillis();
  };

  /** Every grid instant of the day, ascending: both instants of a repeated reading, none in a gap. */
  const gridOf = (day: DayPlan): number[] => {
    const grid: number[] = [];
    for (let m = 0; m < MINUTES_PER_DAY; m += settings.slotMinutes) grid.push(...day.clock.reading(m));
    return grid.sort((a, b) => a - b);
  };

  const planDay = (date: string, closures: readonly Closure[]): DayPlan => {
    const weekday = WEEKDAYS[DateTime.fromISO(date, { zone: 'utc' }).weekday - 1];
    const hours = weekday ? (settings.weeklyHours[weekday] ?? []) : [];
    const clock = clockOf(date);
    return {
      date,
      clock,
      closed: closedOn(date, closures),
      openings: hours.map((iv) => ({
        open: boundary(date, clock, minutesOfDay(iv.start)),
        close: boundary(date, clock, minutesOfDay(iv.end)),
      })),
    };
  };

  /** The rule of the opening hours: `[start, end)` lies inside one opening interval of its day. */
  const insideOpening = (day: DayPlan, start: number, end: number) => day.openings.some((o) => o.open <= start && end <= o.close);

  const intervalOf = (start: number, durationMinutes: number, day: DayPlan): BookableInterval => {
    const end = start + durationMinutes * MINUTE_MS;
    const slots: Date[] = [];
    for (let s = start; s < end; s += slotMs) slots.push(new Date(s));
    return {
      startsAt: day.clock.format(start),
      endsAt: day.clock.format(end),
      start: new Date(start),
      end: new Date(end),
      localDate: day.date,
      durationMinutes,
      slots,
    };
  };

  const days: DayModel = {
    starts(date, durationMinutes) {
      const day = planDay(date, []);
      if (day.openings.length === 0) return [];
      const durationMs = durationMinutes * MINUTE_MS;
      return gridOf(day)
        .filter((start) => insideOpening(day, start, start + durationMs))
        .map((start) => intervalOf(start, durationMinutes, day));
    },
    localDateOf: (instant) => localDateAt(instant.getTime(), zone),
    span(from, to) {
      return { from: new Date(factsOf(from).startMs), to: new Date(factsOf(addCalendarDays(to, 1)).startMs) };
    },
  };

  return { zone, wallMinutes, planDay, insideOpening, intervalOf, days };
};

export const makeDayModel = (settings: BookingSettings): DayModel => makeCalendar(settings).days;

export const makeSlotModel = (settings: BookingSettings, now: Date): SlotModel => {
  const { zone, wallMinutes, planDay, insideOpening, intervalOf, days } = makeCalendar(settings);
  const nowMs = now.getTime();
  const { noticeUntilMs, lastDate } = bookingWindow(settings, nowMs);

  const whyUnavailable = (day: DayPlan, start: number, end: number): string | null => {
    if (day.closed) return `The garage is closed on ${day.date}`;
    if (day.date > lastDate) {
      return `Appointments can be booked at most ${settings.horizonDays} days ahead (until ${lastDate})`;
    }
    if (start < noticeUntilMs) return `Appointments need ${settings.minNoticeMinutes} minutes notice`;
    if (!insideOpening(day, start, end)) return 'The appointment is not inside one opening interval of that day';
    return null;
  };

  return {
    ...days,

    parse(input, check) {
      const duration = checkBookingDuration(settings, input.durationMinutes, check);
      const raw = input.startsAt;
      const match = typeof raw === 'string' ? RFC3339.exec(raw) : null;
      const parsed = match ? DateTime.fromISO(raw as string, { setZone: true }) : null;
      if (!parsed?.isValid) {
        check.fail('/startsAt', 'must be an RFC 3339 time with an offset, e.g. 2026-12-01T09:00:00+01:00');
        return null;
      }
      const local = parsed.setZone(zone);
      if (local.year < 1 || local.year > 9999) {
        check.fail('/startsAt', `must fall within the years 0001–9999 in the garage's local time (${zone})`);
        return null;
      }
      if (parsed.toMillis() < nowMs) {
        check.fail('/startsAt', 'must not be in the past');
        return null;
      }
      const zeroSeconds = match?.[2] === '00' && /^(\.0+)?$/.test(match[3] ?? '');
      if (!zeroSeconds || wallMinutes(local) % settings.slotMinutes !== 0) {
        check.fail(
          '/startsAt',
          `must be on the ${settings.slotMinutes}-minute slot grid in the garage's local time (${zone}), with zero seconds`,
        );
        return null;
      }
      return duration === null ? null : { start: new Date(parsed.toMillis()), localDate: local.toISODate() as string, durationMinutes: duration };
    },

    resolve(candidate, closures) {
      const start = candidate.start.getTime();
      const day = planDay(candidate.localDate, closures);
      const reason = whyUnavailable(day, start, start + candidate.durationMinutes * MINUTE_MS);
      if (reason !== null) throw new DatesUnavailableError(reason);
      return intervalOf(start, candidate.durationMinutes, day);
    },
  };
};
