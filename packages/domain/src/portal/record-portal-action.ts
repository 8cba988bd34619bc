import type { Mode } from '../integrations/integration.js';
import type { PortalAction, PortalSession } from './portal.js';
import type { PortalStore } from './portal-store.port.js';

/** Every action taken in the portal is recorded: who (the session's integration), what, when. */
export const makeRecordPortalAction =
  ({ portal }: { portal: Pick<PortalStore, 'recordAction'> }) =>
  (session: PortalSession, mode: Mode, action: string, detail: Record<string, unknown> = {}): Promise<PortalAction> =>
    portal.recordAction({ integrationId: session.integrationId, sessionId: session.id, mode, action, detail });
