import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';
// The contract's `date` and `date-time` formats replace TypeBox's before any schema is compiled.
import './formats.js';

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

type Property = { type?: unknown; default?: unknown };
type Fields = Record<string, unknown>;

const SCALARS = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * What a query string, path or header schema says about its flat map of strings, read once: each declared property
 * with its type, and the defaults of missing values. `defaults` is null unless every property is a scalar with a
 * scalar default (every such schema here); TypeBox's `Value.Default` then walks the schema on each request, as it
 * must for anything nested.
 */
const shapeOf = (schema: TSchema) => {
  const properties = Object.entries((schema as { properties?: Record<string, Property> }).properties ?? {});
  const types = properties.map(([name, property]): [string, unknown] => [name, property.type]);
  let defaults: [string, unknown][] | null = 'default' in schema || properties.length === 0 ? null : [];
  for (const [name, property] of properties) {
    if (defaults === null) break;
    if (typeof property.type !== 'string' || !SCALARS.has(property.type)) defaults = null;
    else if (property.default !== null && typeof property.default === 'object') defaults = null;
    else if ('default' in property) defaults.push([name, property.default]);
  }
  return { types, defaults };
};

/**
 * A copy of `input` with the declared properties converted (only those: not every header a request carries). A value
 * is converted only when the text is exactly a number or boolean of the declared type, so `limit=1.5` stays a string
 * and fails (a lossy conversion would silently page by 1).
 */
const coerce = (types: [string, unknown][], input: unknown): unknown => {
  if (types.length === 0 || typeof input !== 'object' || input === null) return input;
  const output: Fields = { ...(input as Fields) };
  for (const [name, type] of types) {
    const value = output[name];
    if (typeof value !== 'string') continue;
    if (type === 'integer' && INTEGER.test(value)) output[name] = Number(value);
    else if (type === 'number' && NUMBER.test(value)) output[name] = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) output[name] = value === 'true';
  }
  return output;
};

/** Query strings, path parameters and headers: exact conversions, then the declared defaults of missing values. */
const prepare = (schema: TSchema): ((input: unknown) => unknown) => {
  const { types, defaults } = shapeOf(schema);
  return (input) => {
    const value = coerce(types, input);
    if (defaults === null || typeof value !== 'object' || value === null) return Value.Default(schema, value);
    // coerce copied the object: filling in its missing values changes nothing the caller holds.
    for (const [name, fallback] of defaults) if ((value as Fields)[name] === undefined) (value as Fields)[name] = fallback;
    return value;
  };
};

/**
 * Request validation with TypeBox's compiler. Bodies are checked as sent: no coercion, no defaults, and unknown
 * properties are errors (schemas say `additionalProperties: false`), so a connector's typo is reported instead of
 * dropped. Query strings, path parameters and headers get their defaults and exact scalar conversions first. The
 * errors are TypeBox's (`TLocalizedValidationError`: `keyword`, `instancePath`, `schemaPath`, `params`, `message`),
 * which Fastify passes on as the error's `validation`; the error handler turns them into the contract's `details`.
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
