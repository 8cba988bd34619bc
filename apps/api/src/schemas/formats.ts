import { isUuid } from '@garage/domain';
import { Format } from 'typebox/format';

/**
 * The `date` and `date-time` formats as the contract reads them (docs/reference/contract.md §1), stricter than TypeBox's defaults,
 * which follow RFC 9557 and accept what neither the domain nor the database can hold: leap seconds (`23:59:60`),
 * bracketed suffixes (`[Europe/Paris]`) and year 0000. Every time input of the API is declared with these formats,
 * so each of those gets 400 VALIDATION_FAILED before a handler runs.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** A calendar date `YYYY-MM-DD` in the years 0001–9999. */
export const isCalendarDate = (value: string): boolean => {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number));
};

/** An RFC 3339 time with an offset, on a date of the years 0001–9999, without leap seconds or suffixes. */
export const isRfc3339DateTime = (value: string): boolean => {
  const match = DATE_TIME.exec(value);
  if (!match || !isCalendarDate(match[1] as string)) return false;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])];
  if (hour > 23 || minute > 59 || second > 59) return false;
  return match[5] === undefined || (Number(match[5]) <= 23 && Number(match[6]) <= 59);
};

Format.Set('date', isCalendarDate);
Format.Set('date-time', isRfc3339DateTime);
// Ids: the domain's one UUID rule, so that a schema never accepts an id the domain would call malformed (or refuses one it takes).
Format.Set('uuid', isUuid);
