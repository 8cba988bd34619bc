import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { idempotencyKeyHeaders, idempotent } from '../http/idempotency.js';
import { garageOf } from '../plugins/auth.js';
import { AppointmentBooked, availabilityQueryFields, AvailableSlot, BookAppointmentBody } from '../schemas/appointment.js';
import { errorResponses, NotModified } from '../schemas/error.js';
import { apiKeyQueryField } from '../schemas/list.js';

const access = { tags: ['appointments'], security: [{ apiKey: [] }] };

/** Workshop appointments (CONTRACT.md §4.1): key with syncAppointments; no CORS (registered outside public scopes). */
const appointmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/appointments',
    {
      onRequest: app.requireKey('appointments'),
      schema: {
        summary: 'Book an appointment',
        description:
          'Never overbooks: concurrent bookings of one garage and day are serialised, and with capacity C exactly C of N simultaneous requests for a slot succeed. ' +
          'Send an Idempotency-Key to make retries safe (scoped to the integration, kept 24 hours); a replayed response carries `Idempotent-Replayed: true`.',
        ...access,
        headers: idempotencyKeyHeaders,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        body: BookAppointmentBody,
        response: {
          201: AppointmentBooked,
          // 409: SLOT_FULL, DATES_UNAVAILABLE, DUPLICATE, IDEMPOTENCY_IN_PROGRESS.
          ...errorResponses(400, 401, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, 'integration', async () => {
        const principal = request.principal;
        if (!principal) throw new Error('POST /appointments without requireKey');
        const appointment = await app.useCases.bookAppointment({ principal, ...request.body });
        return { status: 201, body: { success: true as const, appointmentId: appointment.id } };
      }),
  );

  app.get(
    '/appointments/availability',
    {
      onRequest: app.requireKey('appointments'),
      config: { etag: true },
      schema: {
        summary: 'List bookable start times',
        description:
          'Every start at which a booking of durationMinutes would succeed right now, in order, on the local dates from..to (inclusive, at most 31 days). ' +
          'Booking a listed startsAt with the same duration succeeds unless someone else took the last place meanwhile.',
        ...access,
        querystring: Type.Object({ ...availabilityQueryFields, ...apiKeyQueryField }, { additionalProperties: false }),
        response: {
          200: Type.Object({ data: Type.Array(AvailableSlot) }, { additionalProperties: false }),
          304: NotModified,
          ...errorResponses(400, 401, 429),
        },
      },
    },
    async (request) => {
      const { from, to, durationMinutes } = request.query;
      return {
        data: await app.useCases.listAvailability({
          garageId: garageOf(request),
          from,
          to,
          ...(durationMinutes === undefined ? {} : { durationMinutes }),
        }),
      };
    },
  );
};

export default appointmentRoutes;
