import type { Clock } from '../index.js';

/**
 * The one clock of the tests: it stands still until the test moves it, so that code whose behaviour depends on
 * "now" (booking notice, expiry, leases, cache ages, retry times) is checked at chosen instants, never by waiting.
 */
export interface TestClock extends Clock {
  /** Jumps to an instant: an ISO 8601 string, a Date or epoch milliseconds. */
  set(at: string | number | Date): void;
  /** Moves by `ms` milliseconds (back in time when negative). */
  advance(ms: number): void;
}

const epochMs = (at: string | number | Date): number => {
  const ms = new Date(at).getTime();
  if (Number.isNaN(ms)) throw new Error(`testClock: not an instant: ${String(at)}`);
  return ms;
};

export const testClock = (start: string | number | Date): TestClock => {
  let now = epochMs(start);
  return {
    now: () => new Date(now),
    nowMs: () => now,
    set: (at) => {
      now = epochMs(at);
    },
    advance: (ms) => {
      now += ms;
    },
  };
};

/** Real time passing, for tests of concurrency and timeouts. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
