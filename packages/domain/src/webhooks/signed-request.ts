import type { EncryptedSecret } from '../integrations/integration.js';
import type { SecretBox } from '../kernel/secret-box.js';
import { signWithEach } from './signature.js';
import type { WebhookRequest } from './webhook-sender.port.js';

/** docs/reference/contract.md §5: a receiver that has not answered within 10 s has failed this attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * The signed POST of one event (docs/reference/contract.md §5), the same for a queued delivery and a `webhook.test`: `secrets` are
 * the plaintext secrets, the current one first, then the one a rotation replaced while its overlap lasts.
 */
export const signedWebhookRequest = (
  { id, body }: { id: string; body: string },
  url: string,
  secrets: readonly string[],
  at: Date,
): WebhookRequest => {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    url,
    body,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWithEach(secrets, id, timestamp, body),
    },
  };
};

/**
 * The plaintext secrets a request is signed with: the current one (which must decrypt), then the one a rotation
 * replaced while its overlap lasts. That one is skipped when no configured key decrypts it any more (the operator
 * retired the encryption key it was sealed with before the overlap ended): receivers on the new secret still verify.
 */
export const signingSecrets = (
  secrets: Pick<SecretBox, 'decrypt'>,
  integrationId: string,
  current: EncryptedSecret,
  previous: EncryptedSecret | null,
): string[] => {
  const plaintexts = [secrets.decrypt(current, integrationId)];
  if (previous) {
    try {
      plaintexts.push(secrets.decrypt(previous, integrationId));
    } catch {
      // See above: the overlap ends early rather than the delivery failing.
    }
  }
  return plaintexts;
};
