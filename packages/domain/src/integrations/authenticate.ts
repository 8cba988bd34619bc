import type { Integration, Principal, SyncToggle } from './integration.js';
import { UnauthorizedError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import type { IntegrationRepository } from './integration-repository.port.js';
import { isWellFormedApiKey, sha256Hex } from './api-key.js';
import { ToggleOffError } from './toggle-off-error.js';

/** `lastUsedAt` is informational; writing it at most once a minute keeps reads free of writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The principal of a key; rejects with `UnauthorizedError` for a missing, unknown or revoked key, and with its
 * `ToggleOffError` for a valid key whose toggle is off.
 */
export type Authenticate = (apiKey: string | undefined, toggle: SyncToggle | null) => Promise<Principal>;

export const makeAuthenticate = ({
  integrations,
  clock,
  onTouchError = () => {},
}: {
  /** The lookup may answer from a cache of the caller's (its answers may then lag by the cache's lifetime). */
  integrations: Pick<IntegrationRepository, 'findActiveByKeyHash' | 'touchLastUsed'>;
  clock: Clock;
  onTouchError?: (err: unknown) => void;
}): Authenticate => {
  const touched = new Map<string, number>();
  const principalOf = (integration: Integration | null, toggle: SyncToggle | null): Principal => {
    if (!integration || integration.revokedAt) throw new UnauthorizedError();
    const principal = { integrationId: integration.id, garageId: integration.garageId, sync: integration.sync, apiVersion: integration.apiVersion, mode: integration.mode };
    if (toggle && !integration.sync[toggle]) throw new ToggleOffError(principal);
    const now = clock.nowMs();
    const last = Math.max(touched.get(integration.id) ?? 0, integration.lastUsedAt?.getTime() ?? 0);
    if (now - last >= LAST_USED_RESOLUTION_MS) {
      touched.set(integration.id, now);
      integrations.touchLastUsed(integration.id, new Date(now)).catch(onTouchError);
    }
    return principal;
  };
  return async (apiKey, toggle) => {
    if (apiKey === undefined || !isWellFormedApiKey(apiKey)) throw new UnauthorizedError();
    return principalOf(await integrations.findActiveByKeyHash(sha256Hex(apiKey)), toggle);
  };
};
