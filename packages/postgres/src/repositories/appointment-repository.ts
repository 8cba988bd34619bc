import {
  InvalidReferenceError,
  MAX_DURATION_MINUTES,
  type Appointment,
  type AppointmentReader,
  type AppointmentRepository,
  type AppointmentVehicle,
  isUuid,
} from '@garage/domain';
import type { Selectable, Transaction } from 'kysely';
import type { AppointmentsTable, Database, Executor } from '../schema.js';

const toAppointment = (row: Selectable<AppointmentsTable>, productIds: string[]): Appointment => ({
  id: row.id,
  garageId: row.garage_id,
  integrationId: row.integration_id,
  startsAt: row.starts_at,
  endsAt: row.ends_at,
  durationMinutes: row.duration_minutes,
  customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
  vehicle: row.vehicle as AppointmentVehicle | null,
  productIds,
  notes: row.notes,
  externalRef: row.external_ref,
  createdAt: row.created_at,
});

export const makeAppointmentReader = (db: Executor): AppointmentReader => ({
  async listOverlapping(garageId, from, to) {
    if (!isUuid(garageId)) return [];
    // Lower bound on starts_at (the check constraint appointments_duration_bounded guarantees it) so that the
    // (garage_id, starts_at) index reads a window instead of the garage's whole history.
    const earliestStart = new Date(from.getTime() - MAX_DURATION_MINUTES * 60_000);
    const rows = await db
      .selectFrom('appointments')
      .select(['starts_at', 'ends_at'])
      .where('garage_id', '=', garageId)
      .where('starts_at', '>', earliestStart)
      .where('starts_at', '<', to)
      .where('ends_at', '>', from)
      .execute();
    return rows.map((row) => ({ startsAt: row.starts_at, endsAt: row.ends_at }));
  },
});

/**
 * Appointments and their products. A product row carries the appointment's garage, and its foreign key targets
 * `products (garage_id, id)`: a product of another garage is a foreign-key violation, which the error mapping turns
 * into INVALID_REFERENCE. The `(integration_id, external_ref)` unique constraint gives DUPLICATE the same way.
 * Bound to a transaction only: the appointment and its products commit together.
 */
export const makeAppointmentRepository = (trx: Transaction<Database>): AppointmentRepository => ({
  ...makeAppointmentReader(trx),

  async create(input) {
    if (!isUuid(input.garageId) || !isUuid(input.integrationId)) throw new InvalidReferenceError('Unknown garage or integration');
    if (!input.productIds.every(isUuid)) throw new InvalidReferenceError('Unknown product');
    const row = await trx
      .insertInto('appointments')
      .values({
        garage_id: input.garageId,
        integration_id: input.integrationId,
        starts_at: input.startsAt,
        ends_at: input.endsAt,
        duration_minutes: input.durationMinutes,
        customer_name: input.customer.name,
        customer_email: input.customer.email ?? null,
        customer_phone: input.customer.phone ?? null,
        vehicle: input.vehicle === null ? null : JSON.stringify(input.vehicle),
        notes: input.notes,
        external_ref: input.externalRef,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (input.productIds.length > 0) {
      await trx
        .insertInto('appointment_products')
        .values(input.productIds.map((productId) => ({ appointment_id: row.id, garage_id: row.garage_id, product_id: productId })))
        .execute();
    }
    return toAppointment(row, [...input.productIds]);
  },
});
