import { InvalidArgumentError } from 'commander';
import { isUuid, type QuoteLineInput, type SyncToggle } from '@garage/domain';
import { API_VERSIONS } from '@garage/versions';

/**
 * Parsers for option and argument values. They reject what is malformed as text (commander then reports a usage
 * error naming the option); ranges and business rules stay in the domain's use-cases.
 */

export const parseInteger = (value: string): number => {
  const n = Number(value);
  if (!/^\s*-?\d+\s*$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be an integer');
  return n;
};

/** A non-negative decimal, such as an overlap in hours (`0.5`). */
export const parseNumber = (value: string): number => {
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value)) throw new InvalidArgumentError('must be a number, such as 24 or 0.5');
  return Number(value);
};

const parseDecimal = (value: string): number | undefined => (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : undefined);

/** A supported API version (docs/connectors/versions.md), such as 2026-11-26. */
export const parseApiVersion = (value: string): string => {
  if (!API_VERSIONS.find(value)) {
    throw new InvalidArgumentError(`unsupported API version "${value}"; supported: ${API_VERSIONS.versions.map((v) => v.version).join(', ')}`);
  }
  return value;
};

export const SYNC_TOGGLES: readonly SyncToggle[] = ['appointments', 'catalog', 'stock'];

/** `appointments,catalog` → the toggles to turn on; an empty value turns every toggle off. */
export const parseSyncList = (value: string): SyncToggle[] => {
  const names = value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !SYNC_TOGGLES.includes(name as SyncToggle));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(`unknown sync toggle ${unknown.map((n) => `"${n}"`).join(', ')}; expected a comma-separated list of ${SYNC_TOGGLES.join(', ')}`);
  }
  return [...new Set(names as SyncToggle[])];
};

/** `"label|qty|unitPriceCents|vatRate"`, repeatable: each occurrence appends a line. */
export const parseQuoteLine = (value: string, previous: QuoteLineInput[] | undefined): QuoteLineInput[] => {
  const [label, quantity, unitPriceCents, vatRate, ...extra] = value.split('|').map((part) => part.trim());
  if (label === undefined || quantity === undefined || unitPriceCents === undefined || vatRate === undefined || extra.length > 0) {
    throw new InvalidArgumentError('expected "label|qty|unitPriceCents|vatRate", e.g. "Oil change|1|4990|20"');
  }
  const line = {
    label,
    quantity: parseDecimal(quantity),
    unitPriceCents: /^-?\d+$/.test(unitPriceCents) ? Number(unitPriceCents) : undefined,
    vatRate: parseDecimal(vatRate),
  };
  if (line.quantity === undefined) throw new InvalidArgumentError(`quantity "${quantity}" must be a number`);
  if (line.unitPriceCents === undefined) throw new InvalidArgumentError(`unitPriceCents "${unitPriceCents}" must be an integer`);
  if (line.vatRate === undefined) throw new InvalidArgumentError(`vatRate "${vatRate}" must be a number such as 20`);
  return [...(previous ?? []), { label, quantity: line.quantity, unitPriceCents: line.unitPriceCents, vatRate: line.vatRate }];
};

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 time with an offset; `Date` alone would accept many other shapes and roll Feb 30 into March. */
export const parseTime = (value: string): Date => {
  const m = RFC3339.exec(value);
  const date = new Date(value);
  const [year, month, day] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
  const calendarDay = new Date(Date.UTC(year, month - 1, day));
  if (!m || Number.isNaN(date.getTime()) || calendarDay.getUTCMonth() !== month - 1 || calendarDay.getUTCDate() !== day) {
    throw new InvalidArgumentError('must be an RFC 3339 time with an offset, e.g. 2026-12-31T18:00:00+01:00');
  }
  return date;
};

export const parseUuid = (value: string): string => {
  if (!isUuid(value)) throw new InvalidArgumentError('must be a UUID');
  return value.toLowerCase();
};
