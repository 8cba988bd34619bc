import type { BookingSettings, Closure } from '../garages/garage.js';
import { addCalendarDays, MINUTE_MS, type LocalTime } from './local-time.js';

/**
 * The rules of docs/reference/contract.md §4.1 that depend on the date and on now rather than on the opening hours:
 *
 * - Closures: nothing can be booked on a local date one of the garage's closures covers.
 * - Horizon: a start is beyond the horizon when its local date is after the garage's local today + `horizonDays`
 *   (with 60 days and today 2026-12-01, 2027-01-30 is the last bookable date, at any hour).
 * - Notice: a start earlier than now + `minNoticeMinutes` is unavailable (exactly at that instant is fine).
 *
 * Booking (the slot model's `resolve`) and availability apply them both from here.
 */

/** What the notice and the horizon leave bookable at one instant: they cut a prefix of time and a suffix of dates. */
export interface BookingWindow {
  /** Epoch milliseconds of the earliest start the notice allows (now + `minNoticeMinutes`). */
  noticeUntilMs: number;
  /** The local date of that instant: every start of an earlier date is too soon. */
  firstDate: string;
  /** The last local date the horizon allows (local today + `horizonDays`). */
  lastDate: string;
}

/** Whether one of `closures` covers the local date `date`: then nothing can be booked on it. */
export const closedOn = (date: string, closures: readonly Closure[]): boolean => closures.some((c) => c.from <= date && date <= c.to);

/**
 * The notice and horizon rules at `nowMs`: a start is bookable now when it is one of the slot model's `starts` of a
 * date not `closedOn`, no earlier than `noticeUntilMs`, on a date no later than `lastDate`. Cheap, as availability
 * needs it per request.
 */
export const bookingWindow = (settings: BookingSettings, nowMs: number, time: LocalTime): BookingWindow => {
  const noticeUntilMs = nowMs + settings.minNoticeMinutes * MINUTE_MS;
  return {
    noticeUntilMs,
    firstDate: time.localDateAt(noticeUntilMs, settings.timezone),
    // Local today plus whole calendar days: date arithmetic on the kept day facts.
    lastDate: addCalendarDays(time.localDateAt(nowMs, settings.timezone), settings.horizonDays),
  };
};
