import { Type, type TSchema } from 'typebox';

/** RFC 3339 on the wire, a `Date` in handlers: the serializer writes `toISOString()`. */
export const DateTime = (options: { description?: string } = {}) =>
  Type.Unsafe<Date>({ type: 'string', format: 'date-time', ...options });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Uuid = (options: { description?: string } = {}) => Type.String({ format: 'uuid', ...options });

/** What the schemas say of a currency code, for `Currency` and the list items' currency fields. */
export const CURRENCY_DOCS = { pattern: '^[A-Z]{3}$', description: 'ISO 4217 code', examples: ['EUR'] };

export const Currency = Type.String(CURRENCY_DOCS);
