import type { SecretBox } from '../kernel/secret-box.js';
import type { WebhookSecretStore } from './webhook-secret-store.port.js';

const BATCH = 100;

/**
 * Re-encrypts every webhook secret that is not under the active key yet, or not yet bound to its integration, so
 * that former keys can be dropped (README: rotating ENCRYPTION_KEY) and no ciphertext opens on another row. The plaintext secret does not change: receivers keep verifying signatures as
 * before. Safe to run again and alongside running instances: a secret that changed meanwhile is left as it is, and a
 * second run finds nothing to do.
 */
export const makeReencryptWebhookSecrets =
  ({ secrets, secretBox }: { secrets: WebhookSecretStore; secretBox: SecretBox }) =>
  async (): Promise<{ reencrypted: number }> => {
    let reencrypted = 0;
    let afterId: string | null = null;
    for (;;) {
      const batch = await secrets.listOutdated(secretBox.activeKeyId, BATCH, afterId);
      for (const { integrationId, secret } of batch) {
        if (secretBox.isCurrent(secret)) continue;
        let plaintext: string;
        try {
          plaintext = secretBox.decrypt(secret, integrationId);
        } catch (err) {
          throw new Error(
            `cannot decrypt the webhook secret of integration ${integrationId} (key id ${secret.keyId}): the key it was encrypted with must be among the previous keys`,
            { cause: err },
          );
        }
        const next = secretBox.encrypt(plaintext, integrationId);
        if (await secrets.replace(integrationId, secret, next)) reencrypted += 1;
      }
      const last = batch.at(-1);
      if (!last || batch.length < BATCH) return { reencrypted };
      afterId = last.integrationId;
    }
  };
