import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
// The contract's `date` and `date-time` formats replace TypeBox's before any schema is compiled.
import './formats.js';

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

type Scalar = { type?: unknown };

/**
 * Query strings, path parameters and headers are flat maps of strings. A value is converted only when the text is
 * exactly a number or boolean of the declared type, so `limit=1.5` stays a string and fails (a lossy conversion
 * would silently page by 1).
 */
/** The declared scalar types of a flat schema's properties, read once: `[name, type]`. */
const scalarTypes = (schema: TSchema): [string, unknown][] =>
  Object.entries((schema as { properties?: Record<string, Scalar> }).properties ?? {}).map(([name, property]) => [name, property.type]);

/**
 * A copy of `input` with the properties the schema declares converted; only those are visited, not every header a
 * request carries.
 */
const coerce = (types: [string, unknown][], input: unknown): unknown => {
  if (types.length === 0 || typeof input !== 'object' || input === null) return input;
  const output: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const [name, type] of types) {
    const value = output[name];
    if (typeof value !== 'string') continue;
    if (type === 'integer' && INTEGER.test(value)) output[name] = Number(value);
    else if (type === 'number' && NUMBER.test(value)) output[name] = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) output[name] = value === 'true';
  }
  return output;
};

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * The defaults of a flat object schema, read once: `[name, value]` for every property that has one, when every
 * property is a scalar with a scalar default (every query string and path schema here). Null otherwise, and then
 * TypeBox's `Value.Default` walks the schema on each request, as it must for anything nested.
 */
const flatDefaults = (schema: TSchema): [string, unknown][] | null => {
  const properties = (schema as { properties?: Record<string, Scalar & { default?: unknown }> }).properties;
  if (!properties || 'default' in schema) return null;
  const defaults: [string, unknown][] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (typeof property.type !== 'string' || !SCALARS.has(property.type)) return null;
    if (!('default' in property)) continue;
    if (property.default !== null && typeof property.default === 'object') return null;
    defaults.push([name, property.default]);
  }
  return defaults;
};

/** Query strings, path parameters and headers: exact conversions, then the declared defaults of missing values. */
const prepare = (schema: TSchema): ((input: unknown) => unknown) => {
  const defaults = flatDefaults(schema);
  const types = scalarTypes(schema);
  if (defaults === null) return (input) => Value.Default(schema, coerce(types, input));
  return (input) => {
    const value = coerce(types, input);
    if (typeof value !== 'object' || value === null) return Value.Default(schema, value);
    // coerce copied the object: filling in its missing values changes nothing the caller holds.
    for (const [name, fallback] of defaults) if ((value as Record<string, unknown>)[name] === undefined) (value as Record<string, unknown>)[name] = fallback;
    return value;
  };
};

/**
 * Request validation with TypeBox's compiler. Bodies are checked as sent: no coercion, no defaults, and unknown
 * properties are errors (schemas say `additionalProperties: false`), so a connector's typo is reported instead of
 * dropped. Query strings, path parameters and headers get their defaults and exact scalar conversions first. The
 * returned errors have Ajv's shape (`instancePath`, `keyword`, `params`, `message`); the error handler turns them
 * into the contract's `details`.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const validator = Compile(schema);
  const prepared = httpPart === 'body' ? null : prepare(schema);
  return (input: unknown) => {
    const value = prepared === null ? input : prepared(input);
    if (validator.Check(value)) return { value };
    return { error: validator.Errors(value) };
  };
};
