import type { FastifyInstance } from 'fastify';
import { pageContext } from './page-context.js';
import { modeOf, PORTAL_PATH, requireSession, sessionOf } from './session.js';

/** Overview: the integration, its toggles and pin, and what was done in the portal. */
export const overviewRoutes = async (app: FastifyInstance) => {
  app.get(PORTAL_PATH, { preHandler: requireSession }, async (request, reply) => {
    const mode = modeOf(request);
    const ctx = await pageContext(request, reply, 'overview', 'Overview', mode);
    const actions = await app.portal.listActions(sessionOf(request).integrationId, 50);
    const endings = await app.portal.keyEndings(ctx.live.id);
    return reply.view('overview.eta', { ...ctx, actions, keyEnding: endings[mode] });
  });
};
