import { NotFoundError, ValidationError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import { Checker } from '../kernel/validation.js';
import type { AvailabilityReader } from './availability-reader.port.js';
import type { AvailableDays, AvailableStart, DayQuery } from './available-days.js';
import { bookingWindow, closedOn } from './booking-window.js';
import { addCalendarDays, checkLocalDate, type LocalTime } from './local-time.js';
import { checkBookingDuration } from './slot-model.js';

export const MAX_AVAILABILITY_DAYS = 31;

export interface AvailabilityQuery {
  garageId: string;
  /** Local dates `YYYY-MM-DD`, inclusive, at most 31 days. */
  from: string;
  to: string;
  /** Defaults to the garage's `slotMinutes`. */
  durationMinutes?: number;
}

/**
 * Records the problems of the query's dates in `check`, and returns the dates whose calendar to read: the query's
 * when they are valid, at most 31 days of them when they are only out of order or too far apart (the duration is
 * still checked against the garage's settings, so that every problem is reported at once), none when one is not a date.
 */
const checkDates = (q: AvailabilityQuery, check: Checker): { from: string; to: string } | null => {
  const fromOk = checkLocalDate(q.from, check, '/from');
  if (!(checkLocalDate(q.to, check, '/to') && fromOk)) return null;
  const lastAllowed = addCalendarDays(q.from, MAX_AVAILABILITY_DAYS - 1);
  if (q.to < q.from) check.fail('/to', 'must not be before from');
  else if (lastAllowed < q.to) check.fail('/to', `must be at most ${MAX_AVAILABILITY_DAYS} days from from, inclusive`);
  return { from: q.from, to: q.to < q.from ? q.from : q.to > lastAllowed ? lastAllowed : q.to };
};

/**
 * Every start at which a booking of `durationMinutes` would succeed right now, in order (docs/reference/contract.md
 * §4.1). One read gives the garage, the closures and the versions of the dates; the dates that notice, horizon and
 * closures leave open go to `days` (the per-day model, computed once per change of a date when cached), and the
 * notice cuts the starts too soon from the first of them. The starts are those of the slot model `makeBookAppointment`
 * resolves against, kept when the capacity rule it checks leaves room. Read without the booking lock: a snapshot, and
 * booking checks again under the lock.
 */
export const makeListAvailability =
  ({
    availability,
    days,
    clock,
    localTime,
  }: {
    availability: Pick<AvailabilityReader, 'findCalendars'>;
    days: AvailableDays;
    clock: Clock;
    localTime: LocalTime;
  }) =>
  async (q: AvailabilityQuery): Promise<AvailableStart[]> => {
    const check = new Checker();
    const dates = checkDates(q, check);
    const [calendar] = await availability.findCalendars([{ garageId: q.garageId, dates }]);
    if (!calendar) throw new NotFoundError('Garage not found');
    const duration = checkBookingDuration(calendar.garage.booking, q.durationMinutes, check);
    if (duration === null || check.details.length > 0) throw new ValidationError('Invalid availability query', check.details);

    const { noticeUntilMs, firstDate, lastDate } = bookingWindow(calendar.garage.booking, clock.nowMs(), localTime);
    const wanted: DayQuery[] = [];
    const first = q.from > firstDate ? q.from : firstDate;
    const last = q.to < lastDate ? q.to : lastDate;
    for (const date of first <= last ? localTime.calendarDates(first, last) : []) {
      if (!closedOn(date, calendar.closures)) wanted.push({ date, version: calendar.versions.get(date) ?? 0 });
    }
    const result: AvailableStart[] = [];
    for (const day of await days.read(calendar.garage, wanted, duration)) {
      // The notice cuts a prefix of the starts (they ascend through the dates).
      for (let i = 0; i < day.starts.length; i++) {
        if ((day.startMs[i] as number) >= noticeUntilMs) result.push(day.starts[i] as AvailableStart);
      }
    }
    return result;
  };
