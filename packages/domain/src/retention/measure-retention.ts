import type { Clock } from '../kernel/clock.port.js';
import type { RetentionPolicy } from './retention-policy.js';
import type { RetentionStore } from './retention-store.port.js';

export interface TableAge {
  table: string;
  /** How old the oldest row is (0 for an empty table): above `retentionSeconds`, the job falls behind. */
  oldestRowAgeSeconds: number;
  retentionSeconds: number;
}

/** Each retained table's oldest row against its retention: what the `data_oldest_row_age_seconds` metric shows. */
export const makeMeasureRetention =
  ({ store, clock, policies }: { store: RetentionStore; clock: Clock; policies: readonly RetentionPolicy[] }) =>
  async (): Promise<TableAge[]> =>
    Promise.all(
      policies.map(async ({ table, keepMs }) => {
        const oldest = await store.oldestRowAt(table);
        const ageMs = oldest === null ? 0 : Math.max(0, clock.now().getTime() - oldest.getTime());
        return { table, oldestRowAgeSeconds: Math.round(ageMs / 1000), retentionSeconds: Math.round(keepMs / 1000) };
      }),
    );
