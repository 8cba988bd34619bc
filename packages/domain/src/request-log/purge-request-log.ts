import type { Clock } from '../kernel/clock.port.js';
import type { RequestLog } from './request-log.port.js';

/** How long request records are kept unless the operator says otherwise (REQUEST_LOG_RETENTION_DAYS). */
export const REQUEST_LOG_RETENTION_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * Deletes the records older than the retention, batch by batch: each delete is short, so no lock is held long and
 * writers of new records are never blocked behind it. Returns how many records it deleted.
 */
export const makePurgeRequestLog =
  ({ log, clock, retentionDays, batchSize = 5000 }: { log: Pick<RequestLog, 'purgeBefore'>; clock: Clock; retentionDays: number; batchSize?: number }) =>
  async (): Promise<number> => {
    const cutoff = new Date(clock.now().getTime() - retentionDays * DAY_MS);
    let purged = 0;
    for (;;) {
      const deleted = await log.purgeBefore(cutoff, batchSize);
      purged += deleted;
      if (deleted < batchSize) return purged;
    }
  };
