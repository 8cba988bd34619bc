import { NotFoundError } from '../kernel/errors.js';
import type { IntegrationRepository } from './integration-repository.port.js';
import type { Clock } from '../kernel/clock.port.js';
import { generateWebhookSecret } from './api-key.js';
import type { SecretBox } from '../kernel/secret-box.js';
import { overlapMs } from './rotation-overlap.js';

/** A new webhook secret, shown once; until the overlap ends every delivery carries both signatures (§5). */
export const makeRotateWebhookSecret =
  ({ integrations, secretBox, clock }: { integrations: Pick<IntegrationRepository, 'rotateWebhookSecret'>; secretBox: SecretBox; clock: Clock }) =>
  async (id: string, { overlapHours = 24 }: { overlapHours?: number } = {}) => {
    const overlap = overlapMs(overlapHours);
    const webhookSecret = generateWebhookSecret();
    const rotated = await integrations.rotateWebhookSecret(id, secretBox.encrypt(webhookSecret, id), clock.now(), overlap);
    if (!rotated) throw new NotFoundError(`Integration ${id} not found or revoked`);
    return { ...rotated, webhookSecret };
  };
