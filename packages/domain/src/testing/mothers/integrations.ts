import { randomBytes, randomUUID } from 'node:crypto';
import { generateWebhookSecret, makeSecretBox, type NewIntegration, type SecretBox } from '../../index.js';

/** The key ring test integrations' webhook secrets are sealed with, unless a test brings its own. */
export const secretBox = makeSecretBox([{ id: 'k1', key: randomBytes(32) }]);

export interface TestIntegrationOptions {
  webhookUrl: string | null;
  syncAppointments?: boolean;
  /** Seals the webhook secret: the worker's tests pass the key ring the worker is started with. */
  secretBox?: SecretBox;
}

/**
 * An integration as `integration create` makes it, for any store (fake or real): a fresh key hash, and a webhook
 * secret that is stored sealed and also returned in clear, as a receiver would hold it to verify signatures.
 */
export const newIntegration = (
  garageId: string,
  options: TestIntegrationOptions,
): { input: NewIntegration; plaintext: string } => {
  const plaintext = generateWebhookSecret();
  const id = randomUUID();
  return {
    plaintext,
    input: {
      id,
      garageId,
      name: 'Webhook integration',
      sync: { appointments: options.syncAppointments ?? false, catalog: false, stock: false },
      webhookUrl: options.webhookUrl,
      apiKeyHash: randomBytes(32).toString('hex'),
      webhookSecret: (options.secretBox ?? secretBox).encrypt(plaintext, id),
    },
  };
};
