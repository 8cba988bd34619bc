import { NotFoundError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import type { DeliveryQueue } from './delivery-queue.port.js';

export interface ReplayedWebhook {
  eventId: string;
  /** Deliveries made due now (one per integration the event went to, revoked ones excepted). */
  deliveries: number;
}

/**
 * Sends an event again to every integration it was delivered to, now, whatever became of the earlier attempts
 * (`webhook replay EVENT_ID`). Receivers see the same `webhook-id` and can recognise the duplicate.
 */
export const makeReplayWebhook =
  ({ queue, clock }: { queue: Pick<DeliveryQueue, 'replayEvent'>; clock: Clock }) =>
  async (eventId: string): Promise<ReplayedWebhook> => {
    const deliveries = await queue.replayEvent(eventId, clock.now());
    if (deliveries === null) throw new NotFoundError(`Webhook event ${eventId} not found`);
    return { eventId, deliveries };
  };
