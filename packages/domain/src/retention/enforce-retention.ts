import type { Clock } from '../kernel/clock.port.js';
import type { RetentionPolicy } from './retention-policy.js';
import type { RetentionStore } from './retention-store.port.js';

export interface RetentionLimits {
  /** Rows per delete: small enough that each statement holds its row locks only briefly. */
  batchSize: number;
  /** Deletes per table and run, so that one run ends; what is left goes at the next run. */
  maxBatches: number;
}

export const DEFAULT_RETENTION_LIMITS: RetentionLimits = { batchSize: 1_000, maxBatches: 200 };

/**
 * Deletes what each policy no longer keeps, table after table, in batches (never one long delete: docs/operators/retention.md).
 * Returns the rows deleted per table.
 */
export const makeEnforceRetention =
  ({
    store,
    clock,
    policies,
    limits = DEFAULT_RETENTION_LIMITS,
  }: {
    store: RetentionStore;
    clock: Clock;
    policies: readonly RetentionPolicy[];
    limits?: RetentionLimits;
  }) =>
  async (): Promise<Record<string, number>> => {
    const purged: Record<string, number> = {};
    for (const { table, keepMs } of policies) {
      const before = new Date(clock.now().getTime() - keepMs);
      let total = 0;
      for (let batch = 0; batch < limits.maxBatches; batch += 1) {
        const deleted = await store.purgeBatch(table, before, limits.batchSize);
        total += deleted;
        if (deleted < limits.batchSize) break;
      }
      purged[table] = total;
    }
    return purged;
  };
