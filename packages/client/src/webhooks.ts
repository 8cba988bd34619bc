import { Webhook } from 'standardwebhooks';
import type { webhooks } from './generated/openapi.js';

/** Every event a webhook receiver can get, discriminated by `type` (from the document's `webhooks`). */
export type WebhookEvent = {
  [K in keyof webhooks]: webhooks[K]['post'] extends { requestBody: { content: { 'application/json': infer Body } } } ? Body : never;
}[keyof webhooks];

export type WebhookEventType = WebhookEvent['type'];

/**
 * Verifies a webhook request with the Standard Webhooks library and returns its event: throws on a bad signature or
 * a timestamp more than five minutes away. `rawBody` must be the body exactly as received, not re-serialised JSON.
 * During a secret rotation the request carries two signatures; either secret verifies it.
 */
export const verifyWebhook = (
  secret: string,
  headers: Record<string, string | string[] | undefined> | Headers,
  rawBody: string,
): WebhookEvent => {
  const plain: Record<string, string> = {};
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((value, name) => (plain[name] = value));
  } else {
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return new Webhook(secret).verify(rawBody, plain) as WebhookEvent;
};
