import { makeDataRetention, RETENTION_INTERVAL_MS, startRetentionJob } from '@garage/composition';
import type { Config } from '@garage/config';
import { systemClock, type Clock } from '@garage/domain';
import { registerRetentionMetrics } from '@garage/observability';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The retention job (docs/operators/retention.md): every `intervalMs`, the rows each table that grows with time no
 * longer keeps (webhook events, deliveries and attempts, expired Idempotency-Key records, the data of sandboxes
 * untouched for SANDBOX_RETENTION_DAYS) are deleted in small batches, until the app closes; any instance may run it,
 * beside the others and the worker. Its metrics show each table's oldest row against its retention.
 */
export default fp(
  async (
    app: FastifyInstance,
    { config, clock = systemClock, intervalMs = RETENTION_INTERVAL_MS }: { config: Config; clock?: Clock; intervalMs?: number },
  ) => {
    const retention = makeDataRetention(app.storage.handle.db, config.retention, clock);
    registerRetentionMetrics(app.metrics.registry, retention.measure);
    const job = startRetentionJob({
      enforce: retention.enforce,
      intervalMs,
      onPurged: (purged) => app.log.info({ purged }, 'rows past their retention deleted'),
      onError: (err) => app.log.warn({ err }, 'could not enforce the retention; retrying at the next interval'),
    });
    app.addHook('onClose', () => job.stop());
  },
  { name: 'data-retention', dependencies: ['storage', 'metrics'] },
);
