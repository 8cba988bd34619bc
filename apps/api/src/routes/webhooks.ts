import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { acceptOptionalBodies } from '../http/optional-body.js';
import { RATE_LIMITS } from '../plugins/rate-limits.js';
import { errorResponses } from '../schemas/error.js';
import { versionOf } from '../plugins/api-versions.js';
import { apiKeyQueryField, listQueryFields, Page } from '../schemas/list.js';
import { Delivery, DeliveryParams, deliveryListQueryFields, Event, eventListQueryFields, WebhookTestResult } from '../schemas/webhook.js';

const webhooks = { tags: ['webhooks'], security: [{ apiKey: [] }] };
const { limit, cursor } = listQueryFields;

const integrationOf = (request: FastifyRequest): string => {
  if (!request.principal) throw new Error(`${request.routeOptions.url} without requireKey`);
  return request.principal.integrationId;
};

/**
 * Webhook self-service (docs/reference/contract.md §5.1): the calling integration tests its endpoint, reads and retries its
 * deliveries, and catches up from its event feed, whatever its sync toggles. No CORS: these take a key.
 */
const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptOptionalBodies(app);
  const anyKey = app.requireKey(null);

  app.post(
    '/webhooks/test',
    {
      onRequest: anyKey,
      config: { rateLimit: RATE_LIMITS.webhookTest },
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a signed webhook.test event now',
        description:
          "Sends one `webhook.test` event (`data: {integrationId}`) to the integration's webhookUrl, signed like every event, and answers after that one attempt (no retry), whatever the receiver answered. " +
          'At most 10 per minute per integration.',
        ...webhooks,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        response: { 200: Type.Object({ data: WebhookTestResult }, { additionalProperties: false }), ...errorResponses(400, 401, 409, 413, 415, 429) },
      },
    },
    async (request) => ({ data: await app.useCases.testWebhook(integrationOf(request)) }),
  );

  app.get(
    '/webhooks/deliveries',
    {
      onRequest: anyKey,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "List the integration's webhook deliveries",
        description: 'Newest first, with their status, attempt count and last answer.',
        ...webhooks,
        querystring: Type.Object({ limit, cursor, ...deliveryListQueryFields, ...apiKeyQueryField }, { additionalProperties: false }),
        response: { 200: Page(Delivery), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const { status, type } = request.query;
      return app.useCases.listIntegrationDeliveries({
        integrationId: integrationOf(request),
        limit: request.query.limit ?? 100,
        cursor: request.query.cursor ?? null,
        status: status ?? null,
        type: type ?? null,
      });
    },
  );

  app.post(
    '/webhooks/deliveries/:deliveryId/retry',
    {
      onRequest: anyKey,
      config: { rateLimit: RATE_LIMITS.webhookRetry },
      schema: {
        operationId: 'retryWebhookDelivery',
        summary: 'Queue one more attempt of a delivery now',
        description:
          "Whatever the delivery's status, one more attempt is made at once to the integration's current webhookUrl, with the same `webhook-id`. 404 for a delivery of another integration; 409 WEBHOOK_NOT_CONFIGURED without a webhookUrl. " +
          'At most 30 per minute per integration.',
        ...webhooks,
        params: DeliveryParams,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        response: { 202: Type.Object({ data: Delivery }, { additionalProperties: false }), ...errorResponses(400, 401, 404, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const data = await app.useCases.retryDelivery(integrationOf(request), request.params.deliveryId);
      return reply.code(202).send({ data });
    },
  );

  app.get(
    '/events',
    {
      onRequest: anyKey,
      schema: {
        operationId: 'listEvents',
        summary: "List the integration's events",
        description:
          'The events this integration receives or would receive with a webhookUrl, oldest first, kept at least 30 days: every quote and lead event of the garage, and appointment events while it syncs appointments. ' +
          'An event id equals the `webhook-id` of its deliveries, so a connector whose endpoint was down catches up from here and skips what it already processed.',
        tags: ['events'],
        security: webhooks.security,
        querystring: Type.Object({ limit, cursor, ...eventListQueryFields, ...apiKeyQueryField }, { additionalProperties: false }),
        response: { 200: Page(Event), ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const { type, since } = request.query;
      const page = await app.useCases.listIntegrationEvents({
        integrationId: integrationOf(request),
        limit: request.query.limit ?? 100,
        cursor: request.query.cursor ?? null,
        type: type ?? null,
        since: since === undefined ? null : new Date(since),
      });
      // Stored once in the newest shape, each event is rendered at the version this request is served at.
      const version = versionOf(request);
      const data = page.data.map((e) => ({
        id: e.id,
        type: e.type,
        timestamp: e.occurredAt,
        apiVersion: version,
        livemode: e.livemode,
        data: app.apiVersions.renderEventData(version, e.type, e.data),
      }));
      return { data, nextCursor: page.nextCursor };
    },
  );
};

export default webhookRoutes;
