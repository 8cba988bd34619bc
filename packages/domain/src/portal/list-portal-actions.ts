import type { PortalAction } from './portal.js';
import type { PortalStore } from './portal-store.port.js';

export const PORTAL_AUDIT_LIMIT = 200;

/** The overview's audit and `integration audit`: what was done in the portal, newest first. */
export const makeListPortalActions =
  ({ portal }: { portal: Pick<PortalStore, 'listActions'> }) =>
  (integrationId: string, limit = PORTAL_AUDIT_LIMIT): Promise<PortalAction[]> =>
    portal.listActions(integrationId, limit);
