import { makeEnforceRetention, makeMeasureRetention, systemClock, type Clock, type RetentionLimits, type RetentionSettings } from '@garage/domain';
import { makeRetentionStore, retainedTables, retentionPoliciesOf, type Db } from '@garage/postgres';

/** How often each process runs the retention job (docs/operators/retention.md); runs of several processes overlap harmlessly. */
export const RETENTION_INTERVAL_MS = 10 * 60_000;

/** The retention job and its measure over one database: what the API, the worker and the tests run alike. */
export const makeDataRetention = (db: Db, settings: RetentionSettings, clock: Clock = systemClock, limits?: RetentionLimits) => {
  const tables = retainedTables(settings);
  const store = makeRetentionStore(db, tables);
  const policies = retentionPoliciesOf(tables, settings);
  return {
    enforce: makeEnforceRetention({ store, clock, policies, ...(limits ? { limits } : {}) }),
    measure: makeMeasureRetention({ store, clock, policies }),
  };
};

export type DataRetention = ReturnType<typeof makeDataRetention>;

/**
 * Runs `enforce` every `intervalMs` until stopped, one run at a time; never keeps the process alive. Reports each run
 * that deleted something, and each failure (the next run tries again).
 */
export const startRetentionJob = ({
  enforce,
  intervalMs = RETENTION_INTERVAL_MS,
  onPurged,
  onError,
}: {
  enforce: DataRetention['enforce'];
  intervalMs?: number;
  onPurged: (purged: Record<string, number>) => void;
  onError: (err: unknown) => void;
}): { stop(): Promise<void> } => {
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= enforce()
      .then((purged) => {
        if (Object.values(purged).some((n) => n > 0)) onPurged(purged);
      }, onError)
      .finally(() => (running = null));
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
};
