/** Webhooks: the transactional outbox, signed deliveries with retries, and the operator's view of them. */
export { audienceOf, WEBHOOK_EVENT_TYPES, type Outbox, type OutboxEvent, type WebhookEventType } from '../ports/outbox.port.js';
export { signWebhook, signWithEach } from '../webhooks/signature.js';
export { signedWebhookRequest, signingSecrets, WEBHOOK_TIMEOUT_MS } from '../webhooks/signed-request.js';
export { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, retryDelay, type RetrySchedule } from '../webhooks/retry-schedule.js';
export { webhookBody, type WebhookEvent } from '../webhooks/webhook-event.js';
export type { WebhookRequest, WebhookResponse, WebhookSender } from '../webhooks/webhook-sender.port.js';
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
} from '../webhooks/delivery-queue.port.js';
export {
  DELIVERY_LEASE_MS,
  makeAttemptDelivery,
  makeDeliverDueWebhooks,
  type AttemptDeliveryDeps,
  outcomeOf,
  type DeliverDueWebhooksDeps,
  type DeliveryReport,
} from '../webhooks/deliver-due-webhooks.js';
export { makeReplayWebhook, type ReplayedWebhook } from '../webhooks/replay-webhook.js';
export { MAX_DELIVERY_LIST, makeListWebhookDeliveries } from '../webhooks/list-webhook-deliveries.js';
export type { StoredWebhookSecret, WebhookSecretStore } from '../webhooks/webhook-secret-store.port.js';
export { makeReencryptWebhookSecrets } from '../webhooks/reencrypt-webhook-secrets.js';
export type { DeliveryListQuery, DeliverySummary, EventListQuery, WebhookFeed } from '../webhooks/webhook-feed.port.js';
export {
  makeListIntegrationDeliveries,
  makeListIntegrationEvents,
  makeRetryDelivery,
  makeTestWebhook,
  WEBHOOK_TEST_EVENT_TYPE,
  type IntegrationDeliveriesQuery,
  type IntegrationEventsQuery,
  type WebhookTestResult,
} from '../webhooks/webhook-self-service.js';
export {
  addressLiteralOf,
  DESTINATION_NOT_ALLOWED,
  makeDestinationPolicy,
  parseAllowedNetworks,
  webhookUrlProblem,
  type DestinationPolicy,
} from '../webhooks/webhook-destination.js';
