import type { KeysetPosition } from '../kernel/pagination.js';
import type { DeliveryStatus } from './delivery-queue.port.js';
import type { WebhookEvent } from './webhook-event.js';

/** A delivery as its integration sees it (docs/reference/contract.md §5.1 `GET /webhooks/deliveries`). */
export interface DeliverySummary {
  id: string;
  eventId: string;
  type: WebhookEvent['type'];
  status: DeliveryStatus;
  attemptCount: number;
  lastAttemptAt: Date | null;
  lastResponseStatus: number | null;
  /** Null once the delivery has ended. */
  nextAttemptAt: Date | null;
  createdAt: Date;
}

export interface DeliveryListQuery {
  integrationId: string;
  limit: number;
  /** Newest first: `(createdAt, id)` descending, after this position. */
  after: KeysetPosition | null;
  status: DeliveryStatus | null;
  type: string | null;
}

export interface EventListQuery {
  integrationId: string;
  limit: number;
  /** Oldest first: `(occurredAt, id)` ascending, after this position. */
  after: KeysetPosition | null;
  type: string | null;
  since: Date | null;
}

/**
 * What an integration may read of its webhooks: its deliveries, and its event feed. The feed holds the events of its
 * garage written since the integration was created that it receives or would receive with a webhook URL: every
 * quote and lead event, and appointment events while it syncs appointments.
 */
export interface WebhookFeed {
  listDeliveries(query: DeliveryListQuery): Promise<DeliverySummary[]>;
  /** One of the integration's deliveries; null for a delivery of another integration. */
  findDelivery(integrationId: string, deliveryId: string): Promise<DeliverySummary | null>;
  listEvents(query: EventListQuery): Promise<WebhookEvent[]>;
}
