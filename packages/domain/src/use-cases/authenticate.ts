import type { Principal, SyncToggle } from '../entities/integration.js';
import { UnauthorizedError } from '../errors.js';
import type { Clock } from '../ports/clock.port.js';
import type { IntegrationRepository } from '../ports/integration-repository.port.js';
import { isWellFormedApiKey, sha256Hex } from '../services/api-key.js';
import type { KeyLookup } from '../services/key-cache.js';

/** `lastUsedAt` is informational; writing it at most once a minute keeps reads free of writes. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type Authenticate = (apiKey: string | undefined, toggle: SyncToggle | null) => Promise<Principal>;

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
  return async (apiKey, toggle) => {
    if (apiKey === undefined || !isWellFormedApiKey(apiKey)) throw new UnauthorizedError();
    const integration = await findByKeyHash(sha256Hex(apiKey));
    if (!integration || integration.revokedAt) throw new UnauthorizedError();
    if (toggle && !integration.sync[toggle]) throw new UnauthorizedError();
    const now = clock.nowMs();
    const last = Math.max(touched.get(integration.id) ?? 0, integration.lastUsedAt?.getTime() ?? 0);
    if (now - last >= LAST_USED_RESOLUTION_MS) {
      touched.set(integration.id, now);
      integrations.touchLastUsed(integration.id, new Date(now)).catch(onTouchError);
    }
    return { integrationId: integration.id, garageId: integration.garageId, sync: integration.sync };
  };
};
