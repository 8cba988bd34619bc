import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { idempotencyKeyHeaders, idempotent } from '../http/idempotency.js';
import { acceptOptionalBodies } from '../http/optional-body.js';
import { garageOf } from '../plugins/auth.js';
import {
  Appointment,
  appointmentListQueryFields,
  AppointmentParams,
  availabilityQueryFields,
  AvailableSlot,
  BookAppointmentBody,
  CancelAppointmentBody,
  RescheduleAppointmentBody,
} from '../schemas/appointment.js';
import { errorResponses, NotModified } from '../schemas/error.js';
import { apiKeyQueryField, listQueryFields, Page, pageRequest } from '../schemas/list.js';

const access = { tags: ['appointments'], security: [{ apiKey: [] }] };

const callerOf = (request: FastifyRequest) => {
  if (!request.principal) throw new Error(`${request.routeOptions.url} without requireKey`);
  return request.principal;
};

/**
 * Workshop appointments (docs/reference/contract.md §4.1, §4.6): key with syncAppointments; no CORS (registered outside public
 * scopes). Appointments belong to the garage: any of its integrations with syncAppointments reads and changes them.
 */
const appointmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The cancellation's body is optional; a missing booking or reschedule body then fails field by field.
  acceptOptionalBodies(app);
  app.post(
    '/appointments',
    {
      onRequest: app.requireKey('appointments'),
      schema: {
        operationId: 'createAppointment',
        summary: 'Book an appointment',
        description:
          'Never overbooks: concurrent bookings of one garage and day are serialised, and with capacity C exactly C of N simultaneous requests for a slot succeed. ' +
          'Send an Idempotency-Key to make retries safe (scoped to the integration, kept 24 hours); a replayed response carries `Idempotent-Replayed: true`.',
        ...access,
        headers: idempotencyKeyHeaders,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        body: BookAppointmentBody,
        response: {
          201: Type.Object({ data: Appointment }, { additionalProperties: false }),
          // 409: SLOT_FULL, DATES_UNAVAILABLE, DUPLICATE, IDEMPOTENCY_IN_PROGRESS.
          ...errorResponses(400, 401, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, 'integration', {
        useCase: app.useCases.bookAppointment,
        command: { principal: callerOf(request), ...request.body },
        status: 201,
        body: (data) => ({ data }),
      }),
  );

  app.get(
    '/appointments/availability',
    {
      onRequest: app.requireKey('appointments'),
      config: { etag: true },
      schema: {
        operationId: 'listAvailability',
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

  app.get(
    '/appointments',
    {
      onRequest: app.requireKey('appointments'),
      config: { etag: true },
      schema: {
        operationId: 'listAppointments',
        summary: 'List appointments',
        description:
          "The garage's appointments, every status (a sync learns of cancellations), ordered by (updatedAt, id). from/to filter the local date of startsAt; externalRef matches the calling integration's own references.",
        ...access,
        querystring: Type.Object({ ...listQueryFields, ...appointmentListQueryFields, ...apiKeyQueryField }, { additionalProperties: false }),
        response: { 200: Page(Appointment), 304: NotModified, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const { from, to, status, externalRef } = request.query;
      return app.useCases.listAppointments({
        garageId: garageOf(request),
        integrationId: callerOf(request).integrationId,
        ...pageRequest(request.query),
        from: from ?? null,
        to: to ?? null,
        status: status ?? null,
        externalRef: externalRef ?? null,
      });
    },
  );

  app.get(
    '/appointments/:appointmentId',
    {
      onRequest: app.requireKey('appointments'),
      config: { etag: true },
      schema: {
        operationId: 'getAppointment',
        summary: 'Get an appointment',
        description: 'Any appointment of the garage, whichever of its integrations booked it; 404 for any other id.',
        ...access,
        params: AppointmentParams,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Appointment }, { additionalProperties: false }), 304: NotModified, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({ data: await app.useCases.getAppointment(garageOf(request), request.params.appointmentId) }),
  );

  app.post(
    '/appointments/:appointmentId/cancel',
    {
      onRequest: app.requireKey('appointments'),
      schema: {
        operationId: 'cancelAppointment',
        summary: 'Cancel an appointment',
        description:
          'Frees its place at once. 409 APPOINTMENT_NOT_CHANGEABLE once it is cancelled, completed, a no-show, or has started. Send an Idempotency-Key to make retries safe.',
        ...access,
        headers: idempotencyKeyHeaders,
        params: AppointmentParams,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        body: CancelAppointmentBody,
        response: { 200: Type.Object({ data: Appointment }, { additionalProperties: false }), ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, 'integration', {
        useCase: app.useCases.cancelAppointment,
        command: { garageId: garageOf(request), appointmentId: request.params.appointmentId, reason: request.body?.reason ?? null },
        status: 200,
        body: (data) => ({ data }),
      }),
  );

  app.post(
    '/appointments/:appointmentId/reschedule',
    {
      onRequest: app.requireKey('appointments'),
      schema: {
        operationId: 'rescheduleAppointment',
        summary: 'Reschedule an appointment',
        description:
          'Moves it under every booking rule (400, 409 DATES_UNAVAILABLE, 409 SLOT_FULL), its own current place excepted; atomic: on any error it keeps its old time. 409 APPOINTMENT_NOT_CHANGEABLE as for cancel. Send an Idempotency-Key to make retries safe.',
        ...access,
        headers: idempotencyKeyHeaders,
        params: AppointmentParams,
        querystring: Type.Object(apiKeyQueryField, { additionalProperties: false }),
        body: RescheduleAppointmentBody,
        response: { 200: Type.Object({ data: Appointment }, { additionalProperties: false }), ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      idempotent(request, reply, 'integration', {
        useCase: app.useCases.rescheduleAppointment,
        command: { garageId: garageOf(request), appointmentId: request.params.appointmentId, ...request.body },
        status: 200,
        body: (data) => ({ data }),
      }),
  );
};

export default appointmentRoutes;
