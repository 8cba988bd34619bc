import { generateToken, sha256Hex } from '../integrations/api-key.js';
import type { IntegrationRepository } from '../integrations/integration-repository.port.js';
import type { Clock } from '../kernel/clock.port.js';
import { NotFoundError, ValidationError } from '../kernel/errors.js';
import { PORTAL_LINK_DEFAULT_MINUTES, PORTAL_LINK_MAX_MINUTES } from './portal.js';
import type { PortalStore } from './portal-store.port.js';

/**
 * `integration portal-link`: a single-use secret for a live integration that is not revoked, kept only as its hash.
 * The caller puts it in a URL's fragment, so that no server or proxy on the way logs it.
 */
export const makeCreatePortalLink =
  ({ integrations, portal, clock }: { integrations: Pick<IntegrationRepository, 'findById'>; portal: Pick<PortalStore, 'createLink'>; clock: Clock }) =>
  async (integrationId: string, { ttlMinutes = PORTAL_LINK_DEFAULT_MINUTES }: { ttlMinutes?: number } = {}) => {
    if (!Number.isInteger(ttlMinutes) || ttlMinutes < 1 || ttlMinutes > PORTAL_LINK_MAX_MINUTES) {
      throw new ValidationError('Invalid link lifetime', [{ path: '/ttlMinutes', message: `must be a whole number of minutes from 1 to ${PORTAL_LINK_MAX_MINUTES}` }]);
    }
    const integration = await integrations.findById(integrationId);
    if (!integration || integration.revokedAt !== null || integration.mode !== 'live') throw new NotFoundError(`Integration ${integrationId} not found or revoked`);
    const token = generateToken();
    const expiresAt = new Date(clock.now().getTime() + ttlMinutes * 60_000);
    await portal.createLink({ integrationId, tokenHash: sha256Hex(token), expiresAt });
    return { token, expiresAt };
  };
