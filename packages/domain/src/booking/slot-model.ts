import { DateTime, IANAZone } from 'luxon';
import { WEEKDAYS, type BookingSettings, type Closure } from '../garages/garage.js';
import { DatesUnavailableError } from '../kernel/errors.js';
import { minutesOfDay } from '../garages/opening-hours.js';
import type { Checker } from '../kernel/validation.js';
import { bookingWindow, closedOn } from './booking-window.js';
import { addCalendarDays, fixedOffsetRfc3339, isoWeekday, isStorableDate, MINUTE_MS, parseRfc3339, toLocalRfc3339, type LocalTime } from './local-time.js';

/**
 * The one slot model behind booking and availability (docs/reference/contract.md §4.1). Booking goes through `parse`
 * (the 400 rules) and `resolve` (the 409 rules); availability lists the `starts` of the dates not `closedOn`, cut by
 * the `bookingWindow` (booking-window.ts): the opening-hours rule written once here and the closure, notice and
 * horizon rules written once there, both applied by `resolve`, so that a start availability lists is a start booking
 * accepts. The time-independent part (`makeDayModel`) is what availability keeps per day.
 *
 * Time-zone decisions, all in the garage's IANA zone and all as Luxon computes them (by plain arithmetic on a day
 * Luxon finds has one offset throughout, local-time.ts):
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
 */

export const MAX_DURATION_MINUTES = 480;

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

export interface SlotModel extends DayModel {
  /** The 400 rules of §4.1: records every problem in `check` and returns null when there is any. */
  parse(input: CandidateInput, check: Checker): Candidate | null;
  /** The 409 rules of §4.1: throws `DatesUnavailableError`, or returns the interval and its slots. */
  resolve(candidate: Candidate, closures: readonly Closure[]): BookableInterval;
}

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

/** The time-independent internals shared by `makeDayModel` and `makeSlotModel`. */
const makeCalendar = (settings: BookingSettings, time: LocalTime) => {
  const zone = settings.timezone;
  const iana = IANAZone.create(zone);
  const slotMs = settings.slotMinutes * MINUTE_MS;

  const wallMinutes = (dt: DateTime) => dt.hour * 60 + dt.minute;
  const factsOf = (date: string) => time.dayFacts(zone, date);

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
    const weekday = WEEKDAYS[isoWeekday(date) - 1];
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
    localDateOf: (instant) => time.localDateAt(instant.getTime(), zone),
    span(from, to) {
      return { from: new Date(factsOf(from).startMs), to: new Date(factsOf(addCalendarDays(to, 1)).startMs) };
    },
  };

  return { zone, planDay, insideOpening, intervalOf, days };
};

export const makeDayModel = (settings: BookingSettings, time: LocalTime): DayModel => makeCalendar(settings, time).days;

export const makeSlotModel = (settings: BookingSettings, now: Date, time: LocalTime): SlotModel => {
  const { zone, planDay, insideOpening, intervalOf, days } = makeCalendar(settings, time);
  const nowMs = now.getTime();
  const { noticeUntilMs, lastDate } = bookingWindow(settings, nowMs, time);

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
      const written = parseRfc3339(input.startsAt);
      if (written === null) {
        check.fail('/startsAt', 'must be an RFC 3339 time with an offset, e.g. 2026-12-01T09:00:00+01:00');
        return null;
      }
      const startMs = written.ms;
      const local = time.localReadingAt(startMs, zone);
      if (!isStorableDate(local.date)) {
        check.fail('/startsAt', `must fall within the years 0001–9999 in the garage's local time (${zone})`);
        return null;
      }
      if (startMs < nowMs) {
        check.fail('/startsAt', 'must not be in the past');
        return null;
      }
      if (!written.wholeMinute || local.minutes % settings.slotMinutes !== 0) {
        check.fail(
          '/startsAt',
          `must be on the ${settings.slotMinutes}-minute slot grid in the garage's local time (${zone}), with zero seconds`,
        );
        return null;
      }
      return duration === null ? null : { start: new Date(startMs), localDate: local.date, durationMinutes: duration };
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
