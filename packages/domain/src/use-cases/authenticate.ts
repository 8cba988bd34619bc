import type { Integration, Principal, SyncToggle } from '../entities/integration.js';
import { UnauthorizedError } from '../errors.js';
import type { Clock } from '../ports/clock.port.js';
import type { IntegrationRepository } from '../ports/integration-repository.port.js';
import { isWellFormedApiKey, sha256Hex } from '../services/api-key.js';
import { whenReady, type Awaitable } from '../services/awaitable.js';
import type { KeyLookup } from '../services/key-cache.js';

/** `lastUsedAt` is informational; writing it at most once a minute keeps reads free of writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The principal of a key, or a rejected promise with `UnauthorizedError`. When the key's lookup is cached, the
 * principal is returned at once rather than in a promise (issue 18: the hot path of every authenticated request);
 * `await` it either way. A refusal is always a rejected promise, never a throw.
 */
export type Authenticate = (apiKey: string | undefined, toggle: SyncToggle | null) => Awaitable<Principal>;

export const makeAuthenticate = ({
  findByKeyHash,
  integrations,
  clock,
  onTouchError = () => {},
}: {
  findByKeyHash: KeyLookup;
  integrations: Pick<IntegrationRepository, 'touchLastUsed'>;
  clock: Clock;
  onTouchError?: (err: unknown) => void;
}): Authenticate => {
  const touched = new Map<string, number>();
  const principalOf = (integration: Integration | null, toggle: SyncToggle | null): Principal => {
    if (!integration || integration.revokedAt) throw new UnauthorizedError();
    if (toggle && !integration.sync[toggle]) throw new UnauthorizedError();
    const now = clock.nowMs();
    const last = Math.max(touched.get(integration.id) ?? 0, integration.lastUsedAt?.getTime() ?? 0);
    if (now - last >= LAST_USED_RESOLUTION_MS) {
      touched.set(integration.id, now);
      integrations.touchLastUsed(integration.id, new Date(now)).catch(onTouchError);
    }
    return { integrationId: integration.id, garageId: integration.garageId, sync: integration.sync, apiVersion: integration.apiVersion };
  };
  return (apiKey, toggle) => {
    try {
      if (apiKey === undefined || !isWellFormedApiKey(apiKey)) throw new UnauthorizedError();
      return whenReady(findByKeyHash(sha256Hex(apiKey)), (integration) => principalOf(integration, toggle));
    } catch (err) {
      return Promise.reject(err);
    }
  };
};
