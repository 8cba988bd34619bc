import type { Mode } from '../integrations/integration.js';

/** How long a portal session lasts (docs/reference/contract.md §10). */
export const PORTAL_SESSION_HOURS = 12;
/** A link's life unless the operator says otherwise, and the most it may be given. */
export const PORTAL_LINK_DEFAULT_MINUTES = 60;
export const PORTAL_LINK_MAX_MINUTES = 7 * 24 * 60;
/** How long a version pin moved in the portal may be moved back. */
export const PIN_REVERT_HOURS = 72;

/** An open portal session: the integration (its live side) whose pages it shows. */
export interface PortalSession {
  id: string;
  integrationId: string;
  expiresAt: Date;
}

/** Why a link opened nothing: each is shown plainly on the page. */
export type PortalLinkRefusal = 'used' | 'expired' | 'unknown';

/** An action taken in the portal, as the overview and `integration audit` show it. */
export interface PortalAction {
  id: string;
  integrationId: string;
  mode: Mode;
  /** What was done, such as `webhook.url.update` or `version.pin`. */
  action: string;
  detail: Record<string, unknown>;
  at: Date;
}

export type NewPortalAction = Omit<PortalAction, 'id' | 'at'> & { sessionId: string | null };
