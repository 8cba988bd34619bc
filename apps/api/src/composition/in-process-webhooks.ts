import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { makeDeliveryQueue } from '@garage/postgres';
import { makeWebhookDelivery, registerWebhookMetrics } from '@garage/webhook-delivery';
import type { Config } from '@garage/config';

/**
 * In-process webhook delivery (docs/reference/contract.md §5: one process is a complete system), when DELIVER_WEBHOOKS is on. Hooks
 * run in reverse order of registration on close, so the engine, registered after the database, stops (finishing its
 * attempts in flight) before the database closes.
 */
export default fp(
  async (app: FastifyInstance, { config }: { config: Config }) => {
    if (!config.deliverWebhooks) return;
    // The same webhook metrics as the worker's (docs/reference/contract.md §6), beside the API's own.
    const webhookMetrics = registerWebhookMetrics(app.metrics.registry, { backlog: () => makeDeliveryQueue(app.storage.handle.db).backlog() });
    const loop = makeWebhookDelivery({
      db: app.storage.handle.db,
      listen: app.storage.handle.listen,
      encryptionKeys: app.storage.encryptionKeys,
      schedule: config.webhookRetryScheduleMs,
      // The registry this app serves (buildApp's `apiVersions`), so that deliveries render what its responses do.
      versions: app.apiVersions,
      allowedNetworks: config.webhookAllowedNetworks,
      logger: app.log,
      onDelivery: webhookMetrics.record,
    }).start();
    app.addHook('onClose', () => loop.stop());
  },
  { name: 'in-process-webhooks', dependencies: ['storage', 'metrics', 'api-versions'] },
);
