import type { TObject, Static } from 'typebox';
import { Value } from 'typebox/value';
import { ConfigError } from './config-error.js';

/** `process.env`, or any map of variable names to values. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Values that must never appear in a message: keys, and URLs that may carry a password. */
const SECRET = /^(ENCRYPTION_KEY|DATABASE_URL|DATABASE_READ_URL|REDIS_URL)/;

/**
 * Reads the variables `schema` declares from `env`, applies its defaults and checks it. Empty strings count as unset,
 * as in most deployment tools. The first bad variable stops it with a `ConfigError` built from the field's
 * `description` ("must be <description>"), quoting the value unless it may be a secret.
 */
export const readEnv = <S extends TObject>(schema: S, env: Environment): Static<S> => {
  const raw: Record<string, string> = {};
  for (const name of Object.keys(schema.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const withDefaults = Value.Default(schema, raw);
  const [issue] = Value.Errors(schema, withDefaults);
  if (issue) {
    const variable = issue.instancePath.slice(1);
    const field = schema.properties[variable] as { description?: string } | undefined;
    const shown = SECRET.test(variable) ? '' : ` (got "${raw[variable]}")`;
    throw new ConfigError(variable, `must be ${field?.description ?? 'valid'}${shown}`);
  }
  return withDefaults as Static<S>;
};
