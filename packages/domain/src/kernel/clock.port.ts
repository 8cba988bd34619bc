export interface Clock {
  now(): Date;
  /** `now()` in epoch milliseconds, without making a Date: what hot paths (cache ages, per request) read. */
  nowMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), nowMs: Date.now };
