import type { Lead, LeadRepository } from '@garage/domain';
import { InvalidReferenceError, isUuid } from '@garage/domain';
import type { Executor } from '../schema.js';

export const makeLeadRepository = (db: Executor): LeadRepository => ({
  async create(input) {
    if (!isUuid(input.garageId) || !isUuid(input.vehicleId)) throw new InvalidReferenceError('Unknown vehicle');
    const row = await db
      .insertInto('leads')
      .values({
        garage_id: input.garageId,
        vehicle_id: input.vehicleId,
        name: input.name,
        email: input.email,
        phone: input.phone,
        message: input.message,
        consent: input.consent,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      id: row.id,
      garageId: row.garage_id,
      vehicleId: row.vehicle_id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      message: row.message,
      consent: true,
      createdAt: row.created_at,
    } satisfies Lead;
  },
});
