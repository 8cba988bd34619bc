import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { idempotencyKeyHeaders, idempotent } from '../http/idempotency.js';
import { RATE_LIMITS } from '../plugins/rate-limits.js';
import { errorResponses } from '../schemas/error.js';
import { Type } from 'typebox';
import { LeadBody, SubmittedLead } from '../schemas/lead.js';

/** Contact requests about a vehicle for sale, sent from garage websites: no key, cross-origin, rate limited per IP. */
const leadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/lead',
    {
      config: { rateLimit: RATE_LIMITS.lead },
      schema: {
        operationId: 'createLead',
        summary: 'Send a lead about a vehicle for sale',
        description:
          'No key: the vehicle identifies the garage. An email or a phone is required, and consent must be true. ' +
          'An unknown or sold vehicle gives 404. Limited to 5 requests per minute per client IP (every request counts). ' +
          'Send an Idempotency-Key to make retries safe (scoped to the vehicle, kept 24 hours).',
        tags: ['leads'],
        security: [],
        headers: idempotencyKeyHeaders,
        body: LeadBody,
        // 409: IDEMPOTENCY_IN_PROGRESS.
        response: { 201: Type.Object({ data: SubmittedLead }, { additionalProperties: false }), ...errorResponses(400, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, 'vehicle', {
        useCase: app.useCases.submitLead,
        command: request.body,
        status: 201,
        body: ({ id, vehicleId, createdAt }) => ({ data: { id, vehicleId, createdAt } }),
      }),
  );
};

export default leadRoutes;
