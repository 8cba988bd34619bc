import type { Integration, Mode, PortalSession } from '@garage/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The cookie naming a portal session; its value is a secret, stored server side only as its SHA-256. */
export const SESSION_COOKIE = 'garage_portal';
export const PORTAL_PATH = '/portal';

declare module 'fastify' {
  interface FastifyRequest {
    /** The portal session of a page request, set by `requireSession`. */
    portalSession: PortalSession | null;
  }
}

export const sessionOf = (request: FastifyRequest): PortalSession => {
  if (!request.portalSession) throw new Error(`${request.routeOptions.url} without requireSession`);
  return request.portalSession;
};

/** The live / test switch of every page: `?mode=test`, or a form's `mode` field; live otherwise. */
export const modeOf = (request: FastifyRequest): Mode => {
  const fromBody = (request.body as { mode?: unknown } | undefined)?.mode;
  const fromQuery = (request.query as { mode?: unknown } | undefined)?.mode;
  return fromBody === 'test' || fromQuery === 'test' ? 'test' : 'live';
};

/** preHandler of every page but the login: the session the cookie names, or the page that says how to get one. */
export const requireSession = async (request: FastifyRequest, reply: FastifyReply) => {
  const session = await request.server.portal.resolveSession(request.cookies[SESSION_COOKIE]);
  if (!session) {
    return reply.code(401).view('signed-out.eta', { title: 'Signed out', reason: 'none' });
  }
  request.portalSession = session;
};

/** The side of the integration a page shows: the live integration, or its test side (null when it has no sandbox). */
export const sideOf = async (request: FastifyRequest, mode: Mode): Promise<{ live: Integration; side: Integration | null }> => {
  const { portal } = request.server;
  const live = await portal.findIntegration(sessionOf(request).integrationId);
  if (!live) throw new Error('a session of an integration that does not exist');
  return { live, side: mode === 'live' ? live : await portal.findTestSide(live.id) };
};
