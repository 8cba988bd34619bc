import { isDomainError } from '@garage/domain';
import type { FastifyInstance } from 'fastify';
import { requestView } from '../routes/requests.js';
import { href, pageContext } from './page-context.js';
import { modeOf, PORTAL_PATH, requireSession } from './session.js';

interface RequestsQuery {
  status?: string;
  route?: string;
  since?: string;
  cursor?: string;
}

const PAGE_SIZE = 50;

/** Requests: the request log of the side shown, filtered as `GET /requests` filters it, and one record's detail. */
export const requestsRoutes = async (app: FastifyInstance) => {
  app.get<{ Querystring: RequestsQuery }>(`${PORTAL_PATH}/requests`, { preHandler: requireSession }, async (request, reply) => {
    const mode = modeOf(request);
    const ctx = await pageContext(request, reply, 'requests', 'Requests', mode);
    const { status, route, since, cursor } = request.query;
    const filters = { status: status || undefined, route: route || undefined, since: since || undefined };
    let error: string | null = null;
    let page = { data: [] as ReturnType<typeof requestView>[], nextCursor: null as string | null };
    if (ctx.side) {
      try {
        const sinceDate = filters.since === undefined ? null : new Date(filters.since);
        if (sinceDate !== null && Number.isNaN(sinceDate.getTime())) throw new Error('since');
        const found = await app.useCases.listRequests({
          integrationId: ctx.side.id,
          mode,
          limit: PAGE_SIZE,
          cursor: cursor || null,
          status: filters.status ?? null,
          route: filters.route ?? null,
          since: sinceDate,
        });
        page = { data: found.data.map(requestView), nextCursor: found.nextCursor };
      } catch (err) {
        if (!isDomainError(err) && (err as Error).message !== 'since') throw err;
        error = 'These filters are not valid: a status is like 404 or 4xx, a time like 2026-11-27T10:00:00Z.';
      }
    }
    const next = page.nextCursor === null ? null : href(`${PORTAL_PATH}/requests`, mode, { ...filters, cursor: page.nextCursor });
    return reply.view('requests.eta', { ...ctx, filters, records: page.data, next, error, href });
  });

  app.get<{ Params: { requestId: string } }>(`${PORTAL_PATH}/requests/:requestId`, { preHandler: requireSession }, async (request, reply) => {
    const mode = modeOf(request);
    const ctx = await pageContext(request, reply, 'requests', 'Request', mode);
    const record = ctx.side
      ? await app.useCases.getRequest(ctx.side.id, mode, request.params.requestId).then(requestView, (err: unknown) => {
          if (isDomainError(err) && err.code === 'NOT_FOUND') return null;
          throw err;
        })
      : null;
    if (record === null) return reply.code(404).view('request.eta', { ...ctx, record: null, requestId: request.params.requestId, href });
    return reply.view('request.eta', { ...ctx, record, requestId: request.params.requestId, href });
  });
};
