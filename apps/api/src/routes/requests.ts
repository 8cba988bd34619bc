import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Principal, RequestRecord as Record } from '@garage/domain';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errorResponses } from '../schemas/error.js';
import { apiKeyQueryField, listQueryFields, Page } from '../schemas/list.js';
import { RequestParams, RequestRecord, requestListQueryFields } from '../schemas/request-record.js';

const requests = { tags: ['requests'], security: [{ apiKey: [] }] };
const { limit, cursor } = listQueryFields;

const principalOf = (request: FastifyRequest): Principal => {
  if (!request.principal) throw new Error(`${request.routeOptions.url} without requireKey`);
  return request.principal;
};

/** A record as the API shows it: its store id and integration stay inside. */
export const requestView = ({ id: _id, integrationId: _integrationId, errorBody, ...rest }: Record) => ({
  ...rest,
  errorBody: errorBody as { [key: string]: unknown } | null,
});

/**
 * The request log (docs/reference/contract.md §10): the calling integration's own requests of the key's mode, kept
 * `REQUEST_LOG_RETENTION_DAYS`, whatever its toggles. No CORS: these take a key.
 */
const requestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const anyKey = app.requireKey(null);

  app.get(
    '/requests',
    {
      onRequest: anyKey,
      schema: {
        operationId: 'listRequests',
        summary: "List the integration's recent requests",
        description:
          "The calling integration's requests of the key's mode (live or test), newest first, as the API saw them: route, path, query parameter names, status, error code and body, version, duration. Kept 7 days by default. " +
          'Records are written within a few seconds of the response.',
        ...requests,
        querystring: Type.Object({ limit, cursor, ...requestListQueryFields, ...apiKeyQueryField }, { additionalProperties: false }),
        response: { 200: Page(RequestRecord), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { status, route, since } = request.query;
      const page = await app.useCases.listRequests({
        integrationId: principal.integrationId,
        mode: principal.mode,
        limit: request.query.limit ?? 100,
        cursor: request.query.cursor ?? null,
        status: status ?? null,
        route: route ?? null,
        since: since === undefined ? null : new Date(since),
      });
      return { data: page.data.map(requestView), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/requests/:requestId',
    {
      onRequest: anyKey,
      schema: {
        operationId: 'getRequest',
        summary: 'One request by its x-request-id',
        description: "The calling integration's newest request of the key's mode that carried this `x-request-id`; 404 otherwise.",
        ...requests,
        params: RequestParams,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        response: { 200: Type.Object({ data: RequestRecord }, { additionalProperties: false }), ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return { data: requestView(await app.useCases.getRequest(principal.integrationId, principal.mode, request.params.requestId)) };
    },
  );
};

export default requestRoutes;
