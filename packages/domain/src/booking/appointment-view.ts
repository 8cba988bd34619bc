import { completeCustomer, completeVehicle, type Appointment, type AppointmentStatus } from './appointment.js';
import type { OutboxEvent, WebhookEventType } from '../webhooks/outbox.port.js';
import type { LocalTime } from './local-time.js';

/** The appointment object of docs/reference/contract.md §4.6, as the API answers it and webhook events carry it. */
export interface AppointmentView {
  id: string;
  status: AppointmentStatus;
  startsAt: string;
  endsAt: string;
  durationMinutes: number;
  customer: { name: string; email: string | null; phone: string | null };
  vehicle: { plate: string | null; make: string | null; model: string | null; vin: string | null; mileageKm: number | null } | null;
  productIds: string[];
  notes: string | null;
  externalRef: string | null;
  integrationId: string;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  cancellationReason: string | null;
}

/**
 * Every time in the garage's local offset at that instant, the way the connector sent `startsAt` and availability
 * listed it; absent optional values as null.
 */
export const appointmentView = (appointment: Appointment, timezone: string, time: LocalTime): AppointmentView => {
  const local = (instant: Date) => time.localRfc3339(instant, timezone);
  return {
    id: appointment.id,
    status: appointment.status,
    startsAt: local(appointment.startsAt),
    endsAt: local(appointment.endsAt),
    durationMinutes: appointment.durationMinutes,
    customer: completeCustomer(appointment.customer),
    vehicle: completeVehicle(appointment.vehicle),
    productIds: appointment.productIds,
    notes: appointment.notes,
    externalRef: appointment.externalRef,
    integrationId: appointment.integrationId,
    createdAt: local(appointment.createdAt),
    updatedAt: local(appointment.updatedAt),
    cancelledAt: appointment.cancelledAt ? local(appointment.cancelledAt) : null,
    cancellationReason: appointment.cancellationReason,
  };
};

export type AppointmentEventType = Extract<WebhookEventType, `appointment.${string}`>;

/**
 * An appointment webhook event (docs/reference/contract.md §5): its `data` is the appointment object, the view the
 * caller also answers with, made once.
 */
export const appointmentEvent = (type: AppointmentEventType, garageId: string, view: AppointmentView): OutboxEvent => ({
  garageId,
  type,
  data: { ...view },
});
