import type { FastifyInstance } from 'fastify';
import { href, pageContext } from './page-context.js';
import { modeOf, PORTAL_PATH, requireSession } from './session.js';

const PAGE_SIZE = 25;

/** Events: the side's feed, oldest first as `GET /events` gives it, each payload rendered at the integration's pin. */
export const eventRoutes = async (app: FastifyInstance) => {
  app.get<{ Querystring: { cursor?: string } }>(`${PORTAL_PATH}/events`, { preHandler: requireSession }, async (request, reply) => {
    const mode = modeOf(request);
    const ctx = await pageContext(request, reply, 'events', 'Events', mode);
    const page = ctx.side
      ? await app.useCases.listIntegrationEvents({ integrationId: ctx.side.id, limit: PAGE_SIZE, cursor: request.query.cursor || null, type: null, since: null })
      : { data: [], nextCursor: null };
    const pin = ctx.live.apiVersion;
    const events = page.data.map((e) => ({
      id: e.id,
      type: e.type,
      timestamp: e.occurredAt.toISOString(),
      body: JSON.stringify({ type: e.type, timestamp: e.occurredAt.toISOString(), apiVersion: pin, data: app.apiVersions.renderEventData(pin, e.type, e.data) }, null, 2),
    }));
    const next = page.nextCursor === null ? null : href(`${PORTAL_PATH}/events`, mode, { cursor: page.nextCursor });
    return reply.view('events.eta', { ...ctx, events, pin, next });
  });
};
