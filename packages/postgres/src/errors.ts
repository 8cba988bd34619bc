import { DuplicateError, InvalidReferenceError, isDomainError, UnavailableError } from '@garage/domain';

/**
 * The one place where database failures become domain errors (CONTRACT.md §2): transports see only codes, and
 * never match on driver messages themselves.
 */

/** What a unique violation means to a caller, by constraint; the constraint names themselves stay internal. */
const DUPLICATE_MESSAGES: Record<string, string> = {
  garages_slug_key: 'A garage with this slug already exists',
  appointments_integration_external_ref_key: 'This externalRef was already used by this integration',
};

const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
]);

/**
 * Server codes meaning "the database is not there for us right now": connection exceptions (08xxx), shutdown or
 * startup (57P01–57P03), too many connections (53300) and a statement cancelled by statement_timeout (57014).
 */
const isUnavailableSqlState = (code: string) =>
  code.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '57014'].includes(code);

/** pg reports pool and socket failures as plain Errors without a code. */
const UNAVAILABLE_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /^Connection terminated/i,
  /connection error and is not queryable/i,
];

interface DriverError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The error and what it wraps: Node reports a refused dual-stack connect as an AggregateError, pg nests causes. */
const chain = (err: unknown, depth = 0): DriverError[] => {
  if (typeof err !== 'object' || err === null || depth > 5) return [];
  const e = err as DriverError;
  const nested = Array.isArray(e.errors) ? e.errors : [];
  return [e, ...chain(e.cause, depth + 1), ...nested.flatMap((n: unknown) => chain(n, depth + 1))];
};

const isUnavailable = (err: unknown): boolean =>
  chain(err).some(
    ({ code, message }) =>
      (typeof code === 'string' && (NETWORK_CODES.has(code) || isUnavailableSqlState(code))) ||
      (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))),
  );

const withCause = <E extends Error>(error: E, cause: unknown): E => Object.assign(error, { cause });

/** Maps a database failure to its domain error; anything else (a bug) is returned unchanged and becomes a 500. */
export const toDomainError = (err: unknown): unknown => {
  if (isDomainError(err)) return err;
  const { code, constraint } = (typeof err === 'object' && err !== null ? err : {}) as DriverError;
  if (code === '23505') {
    const message = typeof constraint === 'string' ? DUPLICATE_MESSAGES[constraint] : undefined;
    return withCause(new DuplicateError(message), err);
  }
  if (code === '23503') return withCause(new InvalidReferenceError('A referenced record does not exist'), err);
  if (isUnavailable(err)) return withCause(new UnavailableError('The database is unavailable; retry later'), err);
  return err;
};

type AsyncMethods<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => Promise<R> : never;
};

/** Wraps every method of a repository so that its database failures surface as domain errors. */
export const withErrorMapping = <T extends AsyncMethods<T>>(repository: T): T =>
  Object.fromEntries(
    Object.entries(repository).map(([name, method]) => [
      name,
      async (...args: unknown[]) => {
        try {
          return await (method as (...a: unknown[]) => Promise<unknown>)(...args);
        } catch (err) {
          throw toDomainError(err);
        }
      },
    ]),
  ) as T;
