import type { FastifyInstance } from 'fastify';
import { PORTAL_PATH, SESSION_COOKIE } from './session.js';

const REFUSALS = {
  used: 'This link was already used. A portal link opens one session only: ask the garage for a new one.',
  expired: 'This link has expired. Ask the garage for a new one.',
  unknown: 'This link is not valid. Check that it was copied whole, or ask the garage for a new one.',
} as const;

/**
 * The login page and its exchange (docs/connectors/portal.md). The link's secret is in the URL's fragment, which the
 * browser never sends: the page's one script copies it into the form and submits it, so that neither a server nor a
 * proxy ever logs it. Without JavaScript, the code is pasted into the same form.
 */
export const loginRoutes = async (app: FastifyInstance, { secureCookies }: { secureCookies: boolean }) => {
  app.get(`${PORTAL_PATH}/login`, async (_request, reply) => reply.view('login.eta', { title: 'Sign in', csrf: reply.generateCsrf() }));

  app.post<{ Body: { token?: string } }>(`${PORTAL_PATH}/login`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const token = typeof request.body?.token === 'string' ? request.body.token.trim() : '';
    const opened = token === '' ? ({ refused: 'unknown' } as const) : await app.portal.openSession(token);
    if ('refused' in opened) {
      return reply.code(403).view('signed-out.eta', { title: 'Link refused', reason: opened.refused, message: REFUSALS[opened.refused] });
    }
    void reply.setCookie(SESSION_COOKIE, opened.secret, {
      path: PORTAL_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookies,
      expires: opened.session.expiresAt,
    });
    return reply.redirect(PORTAL_PATH, 303);
  });

  app.post(`${PORTAL_PATH}/logout`, { preHandler: app.csrfProtection }, async (request, reply) => {
    const session = await app.portal.resolveSession(request.cookies[SESSION_COOKIE]);
    if (session) await app.portal.endSession(session);
    void reply.clearCookie(SESSION_COOKIE, { path: PORTAL_PATH });
    return reply.view('signed-out.eta', { title: 'Signed out', reason: 'logout' });
  });
};
