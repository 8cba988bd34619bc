import { sha256Hex } from '../integrations/api-key.js';
import type { Clock } from '../kernel/clock.port.js';
import type { PortalSession } from './portal.js';
import type { PortalStore } from './portal-store.port.js';

/** The session a cookie names, read on every page: none once ended, expired, or its integration revoked. */
export const makeResolvePortalSession =
  ({ portal, clock }: { portal: Pick<PortalStore, 'findSession'>; clock: Clock }) =>
  async (secret: string | undefined): Promise<PortalSession | null> =>
    secret === undefined || secret === '' ? null : portal.findSession(sha256Hex(secret), clock.now());
