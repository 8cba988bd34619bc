import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * The Standard Webhooks v1 signature (docs/reference/contract.md §5): base64 HMAC-SHA256, keyed with the secret's decoded bytes,
 * over `{id}.{timestamp}.{body}`. The receiver recomputes it from the raw body, so `body` must be the exact bytes sent.
 */
export const signWebhook = (secret: string, id: string, timestampSeconds: number, body: string): string => {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('webhook secret is empty');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
};

/**
 * The `webhook-signature` header for one or more secrets: during a secret rotation's overlap every delivery carries
 * the new secret's signature then the old one's, space-separated, and a receiver holding either secret verifies it.
 */
export const signWithEach = (secrets: readonly string[], id: string, timestampSeconds: number, body: string): string =>
  secrets.map((secret) => signWebhook(secret, id, timestampSeconds, body)).join(' ');
