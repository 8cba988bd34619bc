import { DuplicateError, InvalidReferenceError, isDomainError, SandboxLimitError, UnavailableError, ValidationError } from '@garage/domain';
import { ConnectionFailure } from './connection-failures.js';
import { isStaleStatement } from './pg-query.js';

/**
 * The one place where database failures become domain errors (docs/reference/contract.md §2): transports see only codes, and
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

interface DriverError {
  code?: unknown;
  constraint?: unknown;
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

/** By class and code only: a lost or unobtainable connection (`ConnectionFailure`), a socket's code, a SQLSTATE. */
const isUnavailable = (err: unknown): boolean =>
  chain(err).some(
    (e) =>
      e instanceof ConnectionFailure ||
      (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || isUnavailableSqlState(e.code))),
  );

/**
 * A transaction Postgres chose to abort so that others could go on (a deadlock, a serialization failure): nothing of it
 * was written, and running it again is the documented remedy.
 */
export const isTransactionConflict = (err: unknown): boolean =>
  chain(err).some((e) => e.code === '40P01' || e.code === '40001');

/**
 * A transaction whose work may run again as it is: a conflict Postgres aborted, or one a stale named statement ended
 * (`isStaleStatement`), after which its connection names its statements anew. Nothing of either was written.
 */
export const mayRunAgain = (err: unknown): boolean => isTransactionConflict(err) || chain(err).some(isStaleStatement);

const withCause = <E extends Error>(error: E, cause: unknown): E => Object.assign(error, { cause });

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * Integrity violations (SQLSTATE class 23) with a meaning of their own: a row that conflicts with an exclusion
 * constraint is a duplicate of sorts; a delete restricted by a reference names something still in use.
 */
const INTEGRITY_ERRORS: Record<string, (err: DriverError) => Error> = {
  '23505': ({ constraint }) =>
    new DuplicateError(typeof constraint === 'string' ? DUPLICATE_MESSAGES[constraint] : undefined),
  '23P01': () => new DuplicateError('Conflicts with an existing record'),
  '23503': () => new InvalidReferenceError('A referenced record does not exist'),
  '23001': () => new InvalidReferenceError('The record is still referenced'),
  // The check of a sandbox's limits (migration 0015) raises a check violation under this name.
  '23514': ({ constraint }) => (constraint === 'sandbox_limit' ? new SandboxLimitError() : new ValidationError('A value breaks a rule of the stored data')),
};

/**
 * Maps a database failure to its domain error; anything else (a bug) is returned unchanged and becomes a 500.
 * Whatever the database refuses as data is the client's to fix, never a 500 (docs/reference/contract.md §1): every data exception
 * (class 22: text it cannot store, a number or time out of range, a malformed value) and every integrity violation
 * (class 23) not named above (a missing required value, a failed check) is VALIDATION_FAILED. The driver's message
 * names internals (columns, constraints), so it stays in the cause, for the log.
 */
export const toDomainError = (err: unknown): unknown => {
  if (isDomainError(err)) return err;
  const driverError = (typeof err === 'object' && err !== null ? err : {}) as DriverError;
  const { code } = driverError;
  if (typeof code === 'string' && SQLSTATE.test(code)) {
    const integrity = INTEGRITY_ERRORS[code];
    if (integrity) return withCause(integrity(driverError), err);
    if (code.startsWith('22')) return withCause(new ValidationError('A value cannot be stored or compared: it is out of range or malformed'), err);
    if (code.startsWith('23')) return withCause(new ValidationError('A value breaks a rule of the stored data'), err);
  }
  // A ConnectionFailure only says where pg failed: the cause kept for the log is pg's own error, which says why.
  if (isUnavailable(err)) {
    return withCause(new UnavailableError('The database is unavailable; retry later'), err instanceof ConnectionFailure ? err.cause : err);
  }
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
