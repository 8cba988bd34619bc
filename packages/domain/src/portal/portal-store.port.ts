import type { NewPortalAction, PortalAction, PortalLinkRefusal, PortalSession } from './portal.js';

/** Where portal links, sessions and actions are kept; secrets only as their SHA-256. */
export interface PortalStore {
  createLink(link: { integrationId: string; tokenHash: string; expiresAt: Date }): Promise<void>;
  /**
   * Marks the link used, once: of two exchanges of one link, one wins. Returns its integration, or why not (a link of
   * a revoked integration is `unknown`).
   */
  consumeLink(tokenHash: string, at: Date): Promise<{ integrationId: string } | { refused: PortalLinkRefusal }>;
  createSession(session: { integrationId: string; sessionHash: string; expiresAt: Date }): Promise<PortalSession>;
  /** The session, if it is neither ended nor expired and its integration is not revoked. */
  findSession(sessionHash: string, at: Date): Promise<PortalSession | null>;
  endSession(sessionId: string, at: Date): Promise<void>;
  recordAction(action: NewPortalAction): Promise<PortalAction>;
  /** The last 4 characters of the live and the test key of a live integration (null where unknown or absent). */
  keyEndings(liveIntegrationId: string): Promise<{ live: string | null; test: string | null }>;
  /** Newest first. */
  listActions(integrationId: string, limit: number): Promise<PortalAction[]>;
}
