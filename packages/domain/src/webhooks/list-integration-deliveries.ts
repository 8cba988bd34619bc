import type { CursorCodec } from '../kernel/cursor.js';
import { fetchPage, type Page, type PageRequest } from '../kernel/page.js';
import type { DeliveryStatus } from './delivery-queue.port.js';
import type { DeliverySummary, WebhookFeed } from './webhook-feed.port.js';

export interface IntegrationDeliveriesQuery extends PageRequest {
  integrationId: string;
  status: DeliveryStatus | null;
  type: string | null;
}

/** `GET /webhooks/deliveries`: the calling integration's deliveries, newest first. */
export const makeListIntegrationDeliveries =
  ({ feed, cursors }: { feed: Pick<WebhookFeed, 'listDeliveries'>; cursors: CursorCodec }) =>
  (q: IntegrationDeliveriesQuery): Promise<Page<DeliverySummary>> =>
    fetchPage(
      cursors,
      `deliveries|${q.integrationId}|${q.status ?? ''}|${q.type ?? ''}`,
      q,
      (d) => ({ sortValue: d.createdAt, id: d.id }),
      (after, limit) => feed.listDeliveries({ integrationId: q.integrationId, limit, after, status: q.status, type: q.type }),
    );
