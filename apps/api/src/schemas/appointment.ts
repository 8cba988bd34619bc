import {
  APPOINTMENT_FIELD_LIMITS as L,
  APPOINTMENT_STATUSES,
  CANCELLATION_REASON_MAX,
  MAX_AVAILABILITY_DAYS,
  MAX_DURATION_MINUTES,
} from '@garage/domain';
import { Type, type Static, type TSchema } from 'typebox';
import { Uuid } from './common.js';

/**
 * docs/reference/contract.md §4.1. The limits come from the domain, which enforces them again (with the rules a schema cannot say:
 * an email or a phone, the slot grid, a multiple of the garage's slot length); the schema states them so that the
 * OpenAPI document shows them and a malformed body is refused field by field. Optional fields accept null, as the
 * domain does: a connector may send `"vin": null` for "unknown".
 */

/** `type: [T, "null"]` rather than a union, so that a wrong value gets one error naming its field, not one per branch. */
const OrNull = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [(schema as { type?: unknown }).type, 'null'] });

const LocalDate = (description: string) =>
  Type.String({ format: 'date', description, examples: ['2026-12-01'] });

const StartsAt = Type.String({
  format: 'date-time',
  description:
    "RFC 3339 with an offset, on the garage's slot grid in its local time (local minutes since midnight divisible by slotMinutes, zero seconds), not in the past",
  examples: ['2026-12-01T09:00:00+01:00'],
});

const optionalText = (maxLength: number, options: { pattern?: string; description?: string; minLength?: number } = {}) =>
  Type.Optional(OrNull(Type.String({ minLength: 1, maxLength, ...options })));

const Customer = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: L.customerName, pattern: '\\S', description: 'Not blank' }),
    email: optionalText(L.email.max, { pattern: L.email.pattern.source }),
    phone: optionalText(L.phone.max, { pattern: L.phone.pattern.source, description: 'Digits, spaces, ().- and a leading +' }),
  },
  { additionalProperties: false, description: 'At least one of email or phone is required' },
);

const AppointmentVehicle = Type.Object(
  {
    plate: optionalText(L.plate),
    make: optionalText(L.make),
    model: optionalText(L.model),
    vin: optionalText(L.vin),
    mileageKm: Type.Optional(OrNull(Type.Integer({ minimum: 0, maximum: L.mileageKm }))),
  },
  { additionalProperties: false },
);

export const BookAppointmentBody = Type.Object(
  {
    startsAt: StartsAt,
    durationMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_DURATION_MINUTES,
        description: `A multiple of the garage's slotMinutes, at most ${MAX_DURATION_MINUTES}; defaults to slotMinutes`,
      }),
    ),
    customer: Customer,
    vehicle: Type.Optional(OrNull(AppointmentVehicle)),
    productIds: Type.Optional(
      Type.Array(Uuid(), { maxItems: L.productIds, description: "Products of the garage's catalog (unknown ones: 400 INVALID_REFERENCE)" }),
    ),
    notes: optionalText(L.notes, { minLength: 0 }),
    externalRef: optionalText(L.externalRef, { description: "The connector's own reference; unique per integration (409 DUPLICATE)" }),
  },
  { additionalProperties: false, title: 'BookAppointment' },
);


export const AppointmentStatus = Type.Enum([...APPOINTMENT_STATUSES], {
  description: 'booked on creation; the garage confirms, completes or marks a no-show; either side may cancel',
});

const LocalTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const NullableString = Type.Union([Type.String(), Type.Null()]);

/** The appointment object of docs/reference/contract.md §4.6: every time in the garage's local offset, absent values as null. */
export const Appointment = Type.Object(
  {
    id: Uuid(),
    status: AppointmentStatus,
    startsAt: LocalTime("In the garage's local offset at that instant"),
    endsAt: LocalTime(),
    durationMinutes: Type.Integer({ minimum: 1, maximum: MAX_DURATION_MINUTES }),
    customer: Type.Object(
      { name: Type.String(), email: NullableString, phone: NullableString },
      { additionalProperties: false },
    ),
    vehicle: Type.Union([
      Type.Object(
        {
          plate: NullableString,
          make: NullableString,
          model: NullableString,
          vin: NullableString,
          mileageKm: Type.Union([Type.Integer(), Type.Null()]),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    productIds: Type.Array(Uuid()),
    notes: NullableString,
    externalRef: Type.Union([Type.String(), Type.Null()], { description: "The booking integration's own reference" }),
    integrationId: Uuid({ description: 'The integration that booked it' }),
    createdAt: LocalTime(),
    updatedAt: LocalTime('Moves with every change'),
    cancelledAt: Type.Union([LocalTime(), Type.Null()]),
    cancellationReason: NullableString,
  },
  { additionalProperties: false, title: 'Appointment' },
);

export const appointmentListQueryFields = {
  from: Type.Optional(LocalDate("First local date of startsAt (the garage's time zone), inclusive")),
  to: Type.Optional(LocalDate('Last local date of startsAt, inclusive')),
  status: Type.Optional(AppointmentStatus),
  externalRef: Type.Optional(
    Type.String({ minLength: 1, maxLength: L.externalRef, description: "Matches the calling integration's own references only" }),
  ),
};

export const AppointmentParams = Type.Object({ appointmentId: Uuid() }, { additionalProperties: false });

export const CancelAppointmentBody = Type.Object(
  { reason: Type.Optional(Type.Union([Type.String({ maxLength: CANCELLATION_REASON_MAX }), Type.Null()])) },
  { additionalProperties: false, title: 'CancelAppointment', description: 'Optional; the body may be omitted' },
);

export const RescheduleAppointmentBody = Type.Object(
  {
    startsAt: StartsAt,
    durationMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_DURATION_MINUTES,
        description: `A multiple of the garage's slotMinutes, at most ${MAX_DURATION_MINUTES}; defaults to the current duration`,
      }),
    ),
  },
  { additionalProperties: false, title: 'RescheduleAppointment' },
);


export const availabilityQueryFields = {
  from: LocalDate("First local date (the garage's time zone), inclusive"),
  to: LocalDate(`Last local date, inclusive; from..to spans at most ${MAX_AVAILABILITY_DAYS} days`),
  durationMinutes: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_DURATION_MINUTES, description: "The booking's length; defaults to slotMinutes" }),
  ),
};

export const AvailableSlot = Type.Object(
  {
    startsAt: Type.String({ format: 'date-time', description: "In the garage's local offset at that instant" }),
    endsAt: Type.String({ format: 'date-time' }),
    remaining: Type.Integer({ minimum: 1, description: 'How many more bookings of this duration fit at this start' }),
  },
  { additionalProperties: false, title: 'Slot' },
);
