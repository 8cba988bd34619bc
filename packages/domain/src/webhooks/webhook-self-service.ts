import { randomUUID } from 'node:crypto';
import { NotFoundError, WebhookNotConfiguredError } from '../errors.js';
import type { Clock } from '../ports/clock.port.js';
import type { IntegrationRepository } from '../ports/integration-repository.port.js';
import type { CursorCodec } from '../services/cursor.js';
import type { SecretBox } from '../services/secret-box.js';
import { fetchPage, type Page, type PageRequest } from '../use-cases/page.js';
import type { DeliveryQueue, DeliveryStatus } from './delivery-queue.port.js';
import { signedWebhookRequest, signingSecrets } from './signed-request.js';
import type { WebhookEvent } from './webhook-event.js';
import type { DeliverySummary, WebhookFeed } from './webhook-feed.port.js';
import type { WebhookSender } from './webhook-sender.port.js';

/** The event `POST /webhooks/test` sends (CONTRACT.md §5.1); it is not written to the outbox nor to the feed. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

export interface WebhookTestResult {
  /** The `webhook-id` of the test request. */
  eventId: string;
  /** The receiver answered 2xx. */
  delivered: boolean;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

const MAX_ERROR_LENGTH = 500;

/** One signed `webhook.test` attempt to the integration's URL, now, with no retry; answered with what happened. */
export const makeTestWebhook =
  ({
    integrations,
    secrets,
    sender,
    clock,
  }: {
    integrations: Pick<IntegrationRepository, 'findById' | 'getWebhookSecrets'>;
    secrets: Pick<SecretBox, 'decrypt'>;
    sender: WebhookSender;
    clock: Clock;
  }) =>
  async (integrationId: string): Promise<WebhookTestResult> => {
    const [integration, stored] = await Promise.all([integrations.findById(integrationId), integrations.getWebhookSecrets(integrationId)]);
    if (!integration || !stored) throw new NotFoundError(`Integration ${integrationId} not found`);
    if (integration.webhookUrl === null) throw new WebhookNotConfiguredError();
    const sentAt = clock.now();
    const event = { id: randomUUID(), type: WEBHOOK_TEST_EVENT_TYPE, occurredAt: sentAt, data: { integrationId } };
    const plaintexts = signingSecrets(secrets, integrationId, stored.current, stored.previous);
    const response = await sender.send(signedWebhookRequest(event, integration.webhookUrl, plaintexts, sentAt));
    const responseStatus = 'statusCode' in response ? response.statusCode : null;
    return {
      eventId: event.id,
      delivered: responseStatus !== null && responseStatus >= 200 && responseStatus < 300,
      responseStatus,
      error: 'error' in response ? response.error.slice(0, MAX_ERROR_LENGTH) : null,
      durationMs: Math.max(0, clock.nowMs() - sentAt.getTime()),
    };
  };

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

export interface IntegrationEventsQuery extends PageRequest {
  integrationId: string;
  type: string | null;
  since: Date | null;
}

/** `GET /events`: the calling integration's event feed, oldest first, from which a connector catches up. */
export const makeListIntegrationEvents =
  ({ feed, cursors }: { feed: Pick<WebhookFeed, 'listEvents'>; cursors: CursorCodec }) =>
  (q: IntegrationEventsQuery): Promise<Page<WebhookEvent>> =>
    fetchPage(
      cursors,
      `events|${q.integrationId}|${q.type ?? ''}|${q.since?.toISOString() ?? ''}`,
      q,
      (e) => ({ sortValue: e.occurredAt, id: e.id }),
      (after, limit) => feed.listEvents({ integrationId: q.integrationId, limit, after, type: q.type, since: q.since }),
    );

/** `POST /webhooks/deliveries/:id/retry`: one more attempt now, same `webhook-id`, whatever the delivery's status. */
export const makeRetryDelivery =
  ({ queue, clock }: { queue: Pick<DeliveryQueue, 'retryDelivery'>; clock: Clock }) =>
  async (integrationId: string, deliveryId: string): Promise<void> => {
    const result = await queue.retryDelivery(integrationId, deliveryId, clock.now());
    if (result === 'not_found') throw new NotFoundError(`Delivery ${deliveryId} not found`);
    if (result === 'no_url') throw new WebhookNotConfiguredError();
  };
