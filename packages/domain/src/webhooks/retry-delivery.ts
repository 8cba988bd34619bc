import { NotFoundError, WebhookNotConfiguredError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.port.js';
import type { DeliveryQueue } from './delivery-queue.port.js';

/** `POST /webhooks/deliveries/:id/retry`: one more attempt now, same `webhook-id`, whatever the delivery's status. */
export const makeRetryDelivery =
  ({ queue, clock }: { queue: Pick<DeliveryQueue, 'retryDelivery'>; clock: Clock }) =>
  async (integrationId: string, deliveryId: string): Promise<void> => {
    const result = await queue.retryDelivery(integrationId, deliveryId, clock.now());
    if (result === 'not_found') throw new NotFoundError(`Delivery ${deliveryId} not found`);
    if (result === 'no_url') throw new WebhookNotConfiguredError();
  };
