import type { Clock } from '../kernel/clock.port.js';
import type { PortalSession } from './portal.js';
import type { PortalStore } from './portal-store.port.js';

/** Logout: the session ends at once, on every instance. */
export const makeEndPortalSession =
  ({ portal, clock }: { portal: Pick<PortalStore, 'endSession' | 'recordAction'>; clock: Clock }) =>
  async (session: PortalSession): Promise<void> => {
    await portal.recordAction({ integrationId: session.integrationId, sessionId: session.id, mode: 'live', action: 'session.end', detail: {} });
    await portal.endSession(session.id, clock.now());
  };
