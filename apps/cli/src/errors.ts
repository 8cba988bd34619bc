import { isDomainError, type ErrorCode } from '@garage/domain';

/**
 * Exit codes, documented in the README. A script can tell "fix your input" (1) from "the state of the data says no"
 * (2) from "try again later or call someone" (3) without parsing stderr.
 */
export const EXIT = {
  OK: 0,
  /** Usage error, invalid option or file, validation failure, bad configuration. */
  USAGE: 1,
  /** Unknown garage or integration, duplicate, or another conflict with existing data. */
  CONFLICT: 2,
  /** Database unavailable or an unexpected failure. */
  FAILURE: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error of the CLI's own making (unreadable file, bad configuration): its message is meant for the operator. */
export class CliError extends Error {
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode = EXIT.USAGE) {
    super(message);
    this.exitCode = exitCode;
    this.name = 'CliError';
  }
}

const exitCodeFor = (code: ErrorCode): ExitCode => {
  switch (code) {
    case 'VALIDATION_FAILED':
    case 'INVALID_REFERENCE':
      return EXIT.USAGE;
    case 'UNAVAILABLE':
    case 'INTERNAL':
      return EXIT.FAILURE;
    default:
      return EXIT.CONFLICT;
  }
};

/** Node reports a refused connection to a host with several addresses as an AggregateError with an empty message. */
const messageOf = (err: unknown): string => {
  if (err instanceof AggregateError && !err.message) return err.errors.map(messageOf).join('; ');
  if (err instanceof Error) return err.message || err.name;
  return String(err);
};

/** Writes the error for an operator (never a stack trace unless DEBUG is set) and returns the exit code. */
export const reportError = (err: unknown, write: (text: string) => void, debug: boolean): ExitCode => {
  let exitCode: ExitCode;
  if (isDomainError(err)) {
    const details = (err.details ?? []).map((d) => `\n  ${d.path || '/'}: ${d.message}`).join('');
    exitCode = exitCodeFor(err.code);
    // "The database is unavailable" alone does not tell refused from unresolvable; the driver's reason does.
    const cause = exitCode === EXIT.FAILURE && err.cause !== undefined ? `\n  cause: ${messageOf(err.cause)}` : '';
    write(`error: ${err.message} [${err.code}]${details}${cause}\n`);
  } else if (err instanceof CliError) {
    write(`error: ${err.message}\n`);
    exitCode = err.exitCode;
  } else {
    write(`error: ${messageOf(err)}\n`);
    exitCode = EXIT.FAILURE;
  }
  if (debug) {
    for (let e: unknown = err; e instanceof Error; e = e.cause) write(`${e === err ? '' : 'caused by: '}${e.stack ?? e.message}\n`);
  }
  return exitCode;
};
