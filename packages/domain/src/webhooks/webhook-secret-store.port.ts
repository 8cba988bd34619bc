import type { EncryptedSecret } from '../integrations/integration.js';

export interface StoredWebhookSecret {
  integrationId: string;
  secret: EncryptedSecret;
}

/** Webhook secrets as stored, for re-encrypting them under a new key (key rotation). */
export interface WebhookSecretStore {
  /**
   * Up to `limit` secrets not encrypted under `keyId` or not bound to their integration (a nonce without
   * `BOUND_NONCE_PREFIX`), ordered by integration id, after `afterId` when given.
   */
  listOutdated(keyId: string, limit: number, afterId: string | null): Promise<StoredWebhookSecret[]>;
  /**
   * Stores `next` only if the stored secret is still `expected` (compare and set), so that a concurrent change is
   * never overwritten; returns whether it was stored.
   */
  replace(integrationId: string, expected: EncryptedSecret, next: EncryptedSecret): Promise<boolean>;
}
