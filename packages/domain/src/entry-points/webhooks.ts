/** Webhooks: the transactional outbox, signed deliveries with retries, and the operator's view of them. */
export { audienceOf, WEBHOOK_EVENT_TYPES, type Outbox, type OutboxEvent, type WebhookEventType } from '../ports/outbox.port.js';
export { signWebhook } from '../webhooks/signature.js';
export { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule, retryDelay, type RetrySchedule } from '../webhooks/retry-schedule.js';
export { webhookBody, type WebhookEvent } from '../webhooks/webhook-event.js';
export type { WebhookRequest, WebhookResponse, WebhookSender } from '../webhooks/webhook-sender.port.js';
export {
  DELIVERY_STATUSES,
  type ClaimedDelivery,
  type DeliveryAttempt,
  type DeliveryOutcome,
  type DeliveryQueue,
  type DeliveryStatus,
  type DeliveryView,
} from '../webhooks/delivery-queue.port.js';
export {
  DELIVERY_LEASE_MS,
  makeDeliverDueWebhooks,
  outcomeOf,
  WEBHOOK_TIMEOUT_MS,
  type DeliverDueWebhooksDeps,
  type DeliveryReport,
} from '../webhooks/deliver-due-webhooks.js';
export { makeReplayWebhook, type ReplayedWebhook } from '../webhooks/replay-webhook.js';
export { MAX_DELIVERY_LIST, makeListWebhookDeliveries } from '../webhooks/list-webhook-deliveries.js';
export type { StoredWebhookSecret, WebhookSecretStore } from '../webhooks/webhook-secret-store.port.js';
export { makeReencryptWebhookSecrets } from '../webhooks/reencrypt-webhook-secrets.js';
