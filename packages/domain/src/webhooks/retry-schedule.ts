/** Delays in milliseconds between delivery attempts: after failed attempt n, wait `schedule[n - 1]`. */
export type RetrySchedule = readonly number[];

/** docs/reference/contract.md §5: eight attempts over about 33 hours. */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * Parses `WEBHOOK_RETRY_SCHEDULE` (`1s,2s,4s`; units ms, s, m, h). Unset or blank means the default, as with every
 * other variable. Anything else that is not a list of positive whole durations is refused with the offending entry.
 */
export const parseRetrySchedule = (text: string | undefined): RetrySchedule => {
  const source = text === undefined || text.trim() === '' ? DEFAULT_RETRY_SCHEDULE : text;
  return source.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h)\s*$/.exec(part);
    const amount = Number(match?.[1]);
    const unit = UNIT_MS[match?.[2] ?? ''];
    if (!match || unit === undefined || !Number.isSafeInteger(amount) || amount <= 0) {
      throw new Error(
        `WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of positive durations such as 5s,5m,30m,2h ` +
          `(units ms, s, m, h); "${part.trim()}" in "${source}" is not one`,
      );
    }
    return amount * unit;
  });
};

/** The delay before the attempt after failed attempt `attemptNumber` (1-based), or null when the schedule is over. */
export const retryDelay = (schedule: RetrySchedule, attemptNumber: number): number | null =>
  schedule[attemptNumber - 1] ?? null;
