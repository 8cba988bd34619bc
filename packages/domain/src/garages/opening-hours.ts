import { WEEKDAYS, type OpeningInterval, type Weekday, type WeeklyHours } from './garage.js';
import { ValidationError } from '../kernel/errors.js';

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const minutesOfDay = (hhmm: string): number => {
  const m = TIME.exec(hhmm);
  if (!m) throw new ValidationError(`Invalid time "${hhmm}", expected HH:mm`);
  return Number(m[1]) * 60 + Number(m[2]);
};

const emptyWeek = (): WeeklyHours =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, [] as OpeningInterval[]])) as unknown as WeeklyHours;

const expandDays = (spec: string): Weekday[] => {
  const [from, to, extra] = spec.split('-');
  const start = WEEKDAYS.indexOf(from as Weekday);
  const end = to === undefined ? start : WEEKDAYS.indexOf(to as Weekday);
  if (start < 0 || end < 0 || extra !== undefined || end < start) {
    throw new ValidationError(`Invalid weekday range "${spec}", expected e.g. "mon" or "mon-fri"`);
  }
  return WEEKDAYS.slice(start, end + 1);
};

/**
 * Parses `"mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00"`: day groups separated by `;`, each a weekday or
 * weekday range and comma-separated `HH:mm-HH:mm` intervals. Intervals of one day must not overlap.
 */
export const parseWeeklyHours = (text: string): WeeklyHours => {
  const week = emptyWeek();
  for (const group of text.split(';').map((g) => g.trim()).filter(Boolean)) {
    const [days, intervals, extra] = group.split(/\s+/);
    if (!days || !intervals || extra !== undefined) {
      throw new ValidationError(`Invalid opening hours "${group}", expected e.g. "mon-fri 08:00-12:00,14:00-18:00"`);
    }
    const parsed = intervals.split(',').map((iv) => {
      const [start, end, more] = iv.split('-');
      if (!start || !end || more !== undefined || minutesOfDay(start) >= minutesOfDay(end)) {
        throw new ValidationError(`Invalid interval "${iv}", expected HH:mm-HH:mm with start before end`);
      }
      return { start, end };
    });
    for (const day of expandDays(days.toLowerCase())) week[day] = [...week[day], ...parsed];
  }
  for (const day of WEEKDAYS) {
    const sorted = [...week[day]].sort((a, b) => minutesOfDay(a.start) - minutesOfDay(b.start));
    sorted.forEach((iv, i) => {
      const next = sorted[i + 1];
      if (next && minutesOfDay(next.start) < minutesOfDay(iv.end)) {
        throw new ValidationError(`Opening intervals overlap on ${day}`);
      }
    });
    week[day] = sorted;
  }
  return week;
};

export const DEFAULT_OPENING_HOURS = 'mon-fri 08:00-18:00';
