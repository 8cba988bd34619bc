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
const coerce = (schema: TSchema, input: unknown): unknown => {
  const properties = (schema as { properties?: Record<string, Scalar> }).properties;
  if (!properties || typeof input !== 'object' || input === null) return input;
  const output: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  for (const [name, value] of Object.entries(output)) {
    const type = properties[name]?.type;
    if (typeof value !== 'string') continue;
    if (type === 'integer' && INTEGER.test(value)) output[name] = Number(value);
    else if (type === 'number' && NUMBER.test(value)) output[name] = Number(value);
    else if (type === 'boolean' && (value === 'true' || value === 'false')) output[name] = value === 'true';
  }
  return output;
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
  const strict = httpPart === 'body';
  return (input: unknown) => {
    const value = strict ? input : Value.Default(schema, coerce(schema, input));
    if (validator.Check(value)) return { value };
    return { error: validator.Errors(value) };
  };
};
