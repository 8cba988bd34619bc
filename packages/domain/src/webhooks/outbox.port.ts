import type { SyncToggle } from '../integrations/integration.js';

export const WEBHOOK_EVENT_TYPES = [
  'appointment.created',
  'appointment.cancelled',
  'appointment.rescheduled',
  'appointment.updated',
  'quote.accepted',
  'quote.refused',
  'lead.created',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Who receives an event (docs/reference/contract.md §5): appointment events go to the garage's integrations that sync appointments;
 * quote and lead events to every integration of the garage with a webhook URL.
 */
export const audienceOf = (type: WebhookEventType): SyncToggle | null =>
  type.startsWith('appointment.') ? 'appointments' : null;

export interface OutboxEvent {
  garageId: string;
  type: WebhookEventType;
  /** The resource's id and public fields: the `data` member of the webhook body. */
  data: Record<string, unknown>;
}

/**
 * The transactional outbox. `enqueue` must run in the same transaction as the change that caused the event and
 * records one pending delivery per target integration, so nothing is lost between commit and delivery. An adapter
 * may write the event when the transaction commits (nothing reads it before): `enqueue` then resolves at once, and a
 * failure to write it fails the commit, keeping nothing of the transaction.
 */
export interface Outbox {
  enqueue(event: OutboxEvent): Promise<void>;
}
