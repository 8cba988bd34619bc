/** Webhooks: the transactional outbox, signed deliveries with retries, and the operator's view of them. */
export { audienceOf, WEBHOOK_EVENT_TYPES, type Outbox, type OutboxEvent, type WebhookEventType } from './outbox.port.js';
export { signWebhook, signWithEach } from './signature.js';
export { signedWebhookRequest, signingSecrets, WEBHOOK_TIMEOUT_MS } from './signed-request.js';
export { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, retryDelay, type RetrySchedule } from './retry-schedule.js';
export { webhookBody, type WebhookEvent } from './webhook-event.js';
export type { WebhookRequest, WebhookResponse, WebhookSender } from './webhook-sender.port.js';
export {
  DELIVERY_STATUSES,
  type ClaimedDelivery,
  type ClaimRequest,
  type DeliveryBacklog,
  type DeliveryAttempt,
  type DeliveryOutcome,
  type DeliveryQueue,
  type DeliveryStatus,
  type DeliveryView,
} from './delivery-queue.port.js';
export {
  DELIVERY_LEASE_MS,
  makeAttemptDelivery,
  makeDeliverDueWebhooks,
  type AttemptDeliveryDeps,
  outcomeOf,
  type DeliverDueWebhooksDeps,
  type DeliveryReport,
} from './deliver-due-webhooks.js';
export { makeReplayWebhook, type ReplayedWebhook } from './replay-webhook.js';
export { MAX_DELIVERY_LIST, makeListWebhookDeliveries } from './list-webhook-deliveries.js';
export type { StoredWebhookSecret, WebhookSecretStore } from './webhook-secret-store.port.js';
export { makeReencryptWebhookSecrets } from './reencrypt-webhook-secrets.js';
export type { DeliveryListQuery, DeliverySummary, EventListQuery, WebhookFeed } from './webhook-feed.port.js';
export {
  makeListIntegrationDeliveries,
  makeListIntegrationEvents,
  makeRetryDelivery,
  makeTestWebhook,
  WEBHOOK_TEST_EVENT_TYPE,
  type IntegrationDeliveriesQuery,
  type IntegrationEventsQuery,
  type WebhookTestResult,
} from './webhook-self-service.js';
