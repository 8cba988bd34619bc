import { NotFoundError } from '../kernel/errors.js';
import type { IntegrationRepository } from './integration-repository.port.js';
import type { Clock } from '../kernel/clock.port.js';
import { generateApiKey, keyEnding, sha256Hex } from './api-key.js';
import { overlapMs } from './rotation-overlap.js';

/** A new API key, shown once; the old one keeps working for `overlapHours` (0: it stops at once). */
export const makeRotateKey =
  ({ integrations, clock }: { integrations: Pick<IntegrationRepository, 'rotateKey'>; clock: Clock }) =>
  async (id: string, { overlapHours = 0 }: { overlapHours?: number } = {}) => {
    const overlap = overlapMs(overlapHours);
    const apiKey = generateApiKey();
    const rotated = await integrations.rotateKey(id, sha256Hex(apiKey), clock.now(), overlap, keyEnding(apiKey));
    if (!rotated) throw new NotFoundError(`Integration ${id} not found or revoked`);
    return { ...rotated, apiKey };
  };
