import type { Appointment } from '../entities/appointment.js';
import type { OutboxEvent } from '../ports/outbox.port.js';
import { toLocalRfc3339 } from './slot-model.js';

/**
 * The `appointment.created` webhook event (CONTRACT.md §5): the appointment's id and public fields, with its start
 * and end in the garage's local offset, the way the connector sent and availability listed them.
 */
export const appointmentCreatedEvent = (appointment: Appointment, timezone: string): OutboxEvent => ({
  garageId: appointment.garageId,
  type: 'appointment.created',
  data: {
    id: appointment.id,
    startsAt: toLocalRfc3339(appointment.startsAt, timezone),
    endsAt: toLocalRfc3339(appointment.endsAt, timezone),
    durationMinutes: appointment.durationMinutes,
    customer: {
      name: appointment.customer.name,
      email: appointment.customer.email ?? null,
      phone: appointment.customer.phone ?? null,
    },
    vehicle: appointment.vehicle
      ? {
          plate: appointment.vehicle.plate ?? null,
          make: appointment.vehicle.make ?? null,
          model: appointment.vehicle.model ?? null,
          vin: appointment.vehicle.vin ?? null,
          mileageKm: appointment.vehicle.mileageKm ?? null,
        }
      : null,
    productIds: appointment.productIds,
    notes: appointment.notes,
    externalRef: appointment.externalRef,
    createdAt: appointment.createdAt.toISOString(),
  },
});
