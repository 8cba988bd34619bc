import type { WebhookEventType } from './outbox.port.js';

/** An event as written by the outbox: its id is the `webhook-id` of every delivery and every retry. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** When the change happened (the outbox row's creation); the body's `timestamp`. */
  occurredAt: Date;
  /** False for an event of a sandbox: a test-mode event (docs/reference/contract.md §9). */
  livemode: boolean;
  data: Record<string, unknown>;
}

/**
 * The request body (docs/reference/contract.md §5). Built from the stored event alone, so every retry sends the same bytes and the
 * signature a receiver checked once stays valid for a duplicate.
 */
/**
 * The body of an event at an API version (docs/reference/contract.md §8): the event is stored in the newest shape and rendered at
 * the receiving integration's pin when it is sent, so a pin change reaches deliveries already queued. The versions
 * live in the transport layer; the apps pass their renderer in.
 */
export type RenderWebhookBody = (event: Pick<WebhookEvent, 'occurredAt' | 'livemode' | 'data'> & { type: string }, apiVersion: string) => string;

/** The newest shape, without an API version: what a renderer starts from. */
export const webhookBody = (event: Pick<WebhookEvent, 'occurredAt' | 'livemode' | 'data'> & { type: string }): string =>
  JSON.stringify({ type: event.type, timestamp: event.occurredAt.toISOString(), livemode: event.livemode, data: event.data });
