import { generateToken, sha256Hex } from '../integrations/api-key.js';
import type { Clock } from '../kernel/clock.port.js';
import { PORTAL_SESSION_HOURS, type PortalLinkRefusal, type PortalSession } from './portal.js';
import type { PortalStore } from './portal-store.port.js';

export type OpenedSession = { session: PortalSession; secret: string } | { refused: PortalLinkRefusal };

/** The page's exchange of a link's secret: the link is used up, and a session opens for its integration. */
export const makeOpenPortalSession =
  ({ portal, clock }: { portal: Pick<PortalStore, 'consumeLink' | 'createSession' | 'recordAction'>; clock: Clock }) =>
  async (token: string): Promise<OpenedSession> => {
    const now = clock.now();
    const consumed = await portal.consumeLink(sha256Hex(token), now);
    if ('refused' in consumed) return consumed;
    const secret = generateToken();
    const session = await portal.createSession({
      integrationId: consumed.integrationId,
      sessionHash: sha256Hex(secret),
      expiresAt: new Date(now.getTime() + PORTAL_SESSION_HOURS * 3_600_000),
    });
    await portal.recordAction({ integrationId: session.integrationId, sessionId: session.id, mode: 'live', action: 'session.open', detail: {} });
    return { session, secret };
  };
