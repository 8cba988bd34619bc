import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { idempotencyKeyHeaders, idempotent } from '../http/idempotency.js';
import { acceptOptionalBodies } from '../http/optional-body.js';
import { RATE_LIMITS } from '../plugins/rate-limits.js';
import { errorResponses, NotModified } from '../schemas/error.js';
import { AcceptBody, Quote, QuoteToken, RefuseBody } from '../schemas/quote.js';

const QuoteBody = Type.Object({ data: Quote }, { additionalProperties: false });
const params = Type.Object({ token: QuoteToken }, { additionalProperties: false });

const access = { tags: ['quotes'], security: [] };

const DECISION_RULES =
  'An already accepted or refused quote gives 409 QUOTE_ALREADY_PROCESSED (a repeat of the same decision too), an ' +
  'expired one 409 QUOTE_EXPIRED, an unknown token 404. Of concurrent decisions exactly one wins. Limited to 5 ' +
  'requests per 15 minutes per client IP, all tokens together (every request counts). Send an Idempotency-Key to ' +
  'make retries safe (scoped to the request path, token included; kept 24 hours).';

/** The quote page: read a quote, accept or refuse it, with the token of the link the customer received (no key). */
const quoteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptOptionalBodies(app);

  app.get(
    '/:token',
    {
      config: { etag: true },
      schema: {
        operationId: 'getQuote',
        summary: 'Get a quote',
        description: 'status is pending, accepted, refused or expired (a pending quote past expiresAt). Unknown token: 404.',
        ...access,
        params,
        response: { 200: QuoteBody, 304: NotModified, ...errorResponses(400, 404) },
      },
    },
    async (request) => ({ data: await app.useCases.getQuote(request.params.token) }),
  );

  app.post(
    '/:token/accept',
    {
      config: { rateLimit: RATE_LIMITS.quoteDecision },
      schema: {
        operationId: 'acceptQuote',
        summary: 'Accept a quote',
        description: `The body is optional. ${DECISION_RULES}`,
        ...access,
        params,
        headers: idempotencyKeyHeaders,
        body: AcceptBody,
        response: { 200: QuoteBody, ...errorResponses(400, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, 'path', {
        useCase: app.useCases.decideQuote,
        command: { token: request.params.token, decision: 'accept', ...request.body },
        status: 200,
        body: (data) => ({ data }),
      }),
  );

  app.post(
    '/:token/refuse',
    {
      config: { rateLimit: RATE_LIMITS.quoteDecision },
      schema: {
        operationId: 'refuseQuote',
        summary: 'Refuse a quote',
        description: `The body is optional. ${DECISION_RULES}`,
        ...access,
        params,
        headers: idempotencyKeyHeaders,
        body: RefuseBody,
        response: { 200: QuoteBody, ...errorResponses(400, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, 'path', {
        useCase: app.useCases.decideQuote,
        command: { token: request.params.token, decision: 'refuse', ...request.body },
        status: 200,
        body: (data) => ({ data }),
      }),
  );
};

export default quoteRoutes;
