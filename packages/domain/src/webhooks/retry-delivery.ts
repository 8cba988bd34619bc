import { NotFoundError, WebhookNotConfiguredError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import type { DeliveryQueue } from './delivery-queue.port.js';
import type { DeliverySummary, WebhookFeed } from './webhook-feed.port.js';

/** `POST /webhooks/deliveries/:id/retry`: one more attempt now, same `webhook-id`, whatever the delivery's status. */
export const makeRetryDelivery =
  ({ queue, feed, clock }: { queue: Pick<DeliveryQueue, 'retryDelivery'>; feed: Pick<WebhookFeed, 'findDelivery'>; clock: Clock }) =>
  async (integrationId: string, deliveryId: string): Promise<DeliverySummary> => {
    const result = await queue.retryDelivery(integrationId, deliveryId, clock.now());
    if (result === 'not_found') throw new NotFoundError(`Delivery ${deliveryId} not found`);
    if (result === 'no_url') throw new WebhookNotConfiguredError();
    const delivery = await feed.findDelivery(integrationId, deliveryId);
    if (!delivery) throw new NotFoundError(`Delivery ${deliveryId} not found`);
    return delivery;
  };
