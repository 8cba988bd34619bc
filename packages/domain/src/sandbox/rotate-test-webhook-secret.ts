import type { Clock } from '../kernel/clock.port.js';
import { NotFoundError } from '../kernel/errors.js';
import type { SecretBox } from '../kernel/secret-box.js';
import type { UnitOfWork } from '../kernel/unit-of-work.port.js';
import { generateWebhookSecret } from '../integrations/api-key.js';
import { overlapMs } from '../integrations/rotation-overlap.js';
import { testSideToRotate } from './provision-sandbox.js';

/**
 * `integration rotate-webhook-secret ID --test`: a new secret for the sandbox's webhooks, shown once; until the overlap
 * ends its deliveries carry both signatures. An integration without a sandbox gets one, with this secret.
 */
export const makeRotateTestWebhookSecret =
  ({ uow, secretBox, clock }: { uow: UnitOfWork; secretBox: SecretBox; clock: Clock }) =>
  async (id: string, { overlapHours = 24 }: { overlapHours?: number } = {}) => {
    const overlap = overlapMs(overlapHours);
    return uow.run(async (tx) => {
      const { live, testSide, provisioned } = await testSideToRotate(tx, id, secretBox);
      const now = clock.now();
      if (provisioned) return { id: live.id, testWebhookSecret: provisioned.testWebhookSecret, previousSecretExpiresAt: now };
      const testWebhookSecret = generateWebhookSecret();
      const rotated = await tx.integrations.rotateWebhookSecret(testSide.id, secretBox.encrypt(testWebhookSecret, testSide.id), now, overlap);
      if (!rotated) throw new NotFoundError(`Integration ${id} not found or revoked`);
      return { id: live.id, testWebhookSecret, previousSecretExpiresAt: rotated.previousSecretExpiresAt };
    });
  };
