import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { makeWebhookDelivery } from '@garage/webhook-delivery';
import type { Config } from '@garage/config';

/**
 * In-process webhook delivery (CONTRACT.md §5: one process is a complete system), when DELIVER_WEBHOOKS is on. Hooks
 * run in reverse order of registration on close, so the loop, registered after the database, stops (finishing its
 * in-flight batch) before the database closes.
 */
export default fp(
  async (app: FastifyInstance, { config }: { config: Config }) => {
    if (!config.deliverWebhooks) return;
    const loop = makeWebhookDelivery({
      db: app.storage.handle.db,
      encryptionKeys: app.storage.encryptionKeys,
      schedule: config.webhookRetryScheduleMs,
      logger: app.log,
      onDelivery: app.metrics.recordWebhookDelivery,
    }).start();
    app.addHook('onClose', () => loop.stop());
  },
  { name: 'in-process-webhooks', dependencies: ['storage', 'metrics'] },
);
