import type { WebhookEventType } from './outbox.port.js';

/** An event as written by the outbox: its id is the `webhook-id` of every delivery and every retry. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** When the change happened (the outbox row's creation); the body's `timestamp`. */
  occurredAt: Date;
  data: Record<string, unknown>;
}

/**
 * The request body (CONTRACT.md §5). Built from the stored event alone, so every retry sends the same bytes and the
 * signature a receiver checked once stays valid for a duplicate.
 */
export const webhookBody = (event: Pick<WebhookEvent, 'occurredAt' | 'data'> & { type: string }): string =>
  JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), data: event.data });
