import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '@garage/domain';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import { idempotencyKeyHeaders, idempotent } from '../http/idempotency.js';
import { acceptOptionalBodies } from '../http/optional-body.js';
import { garageOf } from '../plugins/auth.js';
import { Appointment, AppointmentParams } from '../schemas/appointment.js';
import { errorResponses } from '../schemas/error.js';
import { apiKeyQueryField } from '../schemas/list.js';
import { SandboxReset, TestAppointmentStatusBody, TestQuote, TestQuoteBody } from '../schemas/test-helpers.js';

const access = { tags: ['Test helpers'], security: [{ apiKey: [] }] };
const LIVE_KEY_NOTE = 'Test key only: with a live key this route does not exist (404 NOT_FOUND).';

const callerOf = (request: FastifyRequest) => {
  if (!request.principal) throw new Error(`${request.routeOptions.url} without requireKey`);
  return request.principal;
};

/** After `requireKey`: these routes exist in test mode only (docs/reference/contract.md §9). */
const testModeOnly: onRequestHookHandler = async (request) => {
  if (callerOf(request).mode !== 'test') throw new NotFoundError('Route not found');
};

/**
 * What a garage does, done by a connector in its sandbox (docs/connectors/testing-your-integration.md): a quote to
 * accept or refuse, an appointment moved as the garage moves it, a reset. Each calls the use case the admin CLI calls,
 * scoped to the sandbox the test key names.
 */
const testHelperRoutes: FastifyPluginAsyncTypebox = async (app) => {
  acceptOptionalBodies(app);

  app.post(
    '/test-helpers/quotes',
    {
      onRequest: [app.requireKey(null), testModeOnly],
      schema: {
        operationId: 'createTestQuote',
        summary: 'Create a quote in the sandbox',
        description: `A pending quote of the sandbox, as the garage would send one; its token can be read, accepted or refused at /quotes/{token}. ${LIVE_KEY_NOTE} 409 SANDBOX_LIMIT past 1,000 quotes.`,
        ...access,
        headers: idempotencyKeyHeaders,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        body: TestQuoteBody,
        response: { 201: Type.Object({ data: TestQuote }, { additionalProperties: false }), ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, 'integration', async () => {
        const { customer, lines, expiresAt } = request.body;
        const created = await app.useCases.createQuote({
          garageId: garageOf(request),
          customerName: customer.name,
          lines,
          ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt) }),
        });
        return { status: 201, body: { data: { ...created.view, token: created.token } } };
      }),
  );

  app.post(
    '/test-helpers/appointments/:appointmentId/status',
    {
      onRequest: [app.requireKey('appointments'), testModeOnly],
      schema: {
        operationId: 'setTestAppointmentStatus',
        summary: 'Set the status of a sandbox appointment',
        description:
          `Moves an appointment of the sandbox as the garage does (\`appointment set-status\`), with the same rules and the same event: \`appointment.updated\`, or \`appointment.cancelled\` for a cancellation. ${LIVE_KEY_NOTE}`,
        ...access,
        headers: idempotencyKeyHeaders,
        params: AppointmentParams,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        body: TestAppointmentStatusBody,
        response: { 200: Type.Object({ data: Appointment }, { additionalProperties: false }), ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, 'integration', async () => {
        const { appointment } = await app.useCases.setAppointmentStatus({
          appointmentId: request.params.appointmentId,
          garageId: garageOf(request),
          status: request.body.status,
          reason: request.body.reason ?? null,
        });
        return { status: 200, body: { data: appointment } };
      }),
  );

  app.post(
    '/test-helpers/sandbox/reset',
    {
      onRequest: [app.requireKey(null), testModeOnly],
      schema: {
        operationId: 'resetSandbox',
        summary: 'Reset the sandbox',
        description:
          `Empties the sandbox's appointments, leads, quotes, events and deliveries, and copies the live garage's settings, closures, catalog, stock and vehicles again (same ids for the same sku and reference). ${LIVE_KEY_NOTE}`,
        ...access,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        response: { 200: Type.Object({ data: SandboxReset }, { additionalProperties: false }), ...errorResponses(400, 401, 404, 413, 415, 429) },
      },
    },
    async (request) => {
      const { resetAt } = await app.useCases.resetSandbox(callerOf(request).integrationId);
      return { data: { resetAt } };
    },
  );
};

export default testHelperRoutes;
