import { Type } from 'typebox';
import type { Json, PreviousShape, VersionChange } from '../version-change.js';

/** The success bodies of `2026-11-21` this change replaced, as that version's document describes them. */
const Ok = Type.Object({ ok: Type.Literal(true) }, { additionalProperties: false });
const Decided = (status: 'accepted' | 'refused') =>
  Type.Object({ ok: Type.Literal(true), status: Type.Literal(status) }, { additionalProperties: false });
const AppointmentBooked = Type.Object(
  { success: Type.Literal(true), appointmentId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false, title: 'AppointmentBooked' },
);
const AppointmentCancelled = Type.Object(
  { ok: Type.Literal(true), status: Type.Literal('cancelled') },
  { additionalProperties: false, title: 'AppointmentCancelled' },
);

/**
 * From the envelope to what was there before. A body without the envelope was stored before this change (an
 * idempotent response kept up to 24 hours) and is already in the previous shape: it passes unchanged.
 */
const fromEnvelope =
  (previous: (data: Json) => Json): PreviousShape['toPrevious'] =>
  (body) =>
    typeof body.data === 'object' && body.data !== null ? previous(body.data as Json) : body;
const decided = (status: 'accepted' | 'refused'): PreviousShape => ({
  schema: Decided(status),
  toPrevious: fromEnvelope((quote) => ({ ok: true, status: quote.status })),
});

/**
 * Every success body is one envelope, `{"data": ...}`: the POSTs that answered with a flag now answer with the
 * resource they made or changed (docs/reference/contract.md §8's table).
 */
export const oneEnvelope: VersionChange = {
  version: '2026-11-26',
  description:
    'Every success body is one envelope, `{"data": ...}`: `POST /appointments` answers 201 `{"data": appointment}` ' +
    '(was `{"success": true, "appointmentId"}`), its cancel 200 `{"data": appointment}`, `POST /fleet/lead` 201 ' +
    '`{"data": {"id", "vehicleId", "createdAt"}}`, quote accept and refuse 200 `{"data": quote}`, and a delivery retry ' +
    '202 `{"data": delivery}` (each was `{"ok": true, ...}`).',
  responses: {
    'POST /api/public/appointments': {
      201: { schema: AppointmentBooked, toPrevious: fromEnvelope((appointment) => ({ success: true, appointmentId: appointment.id })) },
    },
    'POST /api/public/appointments/:appointmentId/cancel': {
      200: { schema: AppointmentCancelled, toPrevious: fromEnvelope(() => ({ ok: true, status: 'cancelled' })) },
    },
    'POST /api/public/fleet/lead': { 201: { schema: Ok, toPrevious: fromEnvelope(() => ({ ok: true })) } },
    'POST /api/public/quotes/:token/accept': { 200: decided('accepted') },
    'POST /api/public/quotes/:token/refuse': { 200: decided('refused') },
    'POST /api/public/webhooks/deliveries/:deliveryId/retry': { 202: { schema: Ok, toPrevious: fromEnvelope(() => ({ ok: true })) } },
  },
};
