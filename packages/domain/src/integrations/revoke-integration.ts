import type { Integration } from './integration.js';
import { NotFoundError } from '../kernel/errors.js';
import type { IntegrationRepository } from './integration-repository.port.js';
import type { Clock } from '../kernel/clock.port.js';

export const makeRevokeIntegration =
  ({ integrations, clock }: { integrations: Pick<IntegrationRepository, 'revoke'>; clock: Clock }) =>
  async (id: string): Promise<Integration> => {
    const revoked = await integrations.revoke(id, clock.now());
    if (!revoked) throw new NotFoundError(`Integration ${id} not found`);
    return revoked;
  };
