import { APPOINTMENT_FIELD_LIMITS } from '../booking/book-appointment.js';
import type { Lead } from '../entities/lead.js';
import { NotFoundError } from '../errors.js';
import type { UnitOfWork } from '../ports/unit-of-work.port.js';
import type { VehicleRepository } from '../ports/vehicle-repository.port.js';
import { Checker } from '../services/validate.js';

export interface SubmitLeadCommand {
  vehicleId: string;
  name: string;
  email?: string | null;
  phone?: string | null;
  message?: string | null;
  consent: boolean;
}

/**
 * The limits of a lead (CONTRACT.md §4.3), exported so that the HTTP schema states the same numbers. A contact is
 * checked with the same rules as an appointment's customer.
 */
export const LEAD_FIELD_LIMITS = {
  name: 120,
  email: APPOINTMENT_FIELD_LIMITS.email,
  phone: APPOINTMENT_FIELD_LIMITS.phone,
  message: 2000,
} as const;

const L = LEAD_FIELD_LIMITS;

const present = (value: unknown): boolean => value !== undefined && value !== null;

const checkLead = (cmd: SubmitLeadCommand): void => {
  const check = new Checker();
  if (typeof cmd.name === 'string' && cmd.name.trim() === '') check.fail('/name', 'must not be blank');
  else check.string('/name', cmd.name, { max: L.name });
  check.string('/email', cmd.email, { optional: true, max: L.email.max });
  if (typeof cmd.email === 'string' && !L.email.pattern.test(cmd.email)) check.fail('/email', 'must be an email address');
  check.string('/phone', cmd.phone, { optional: true, max: L.phone.max });
  if (typeof cmd.phone === 'string' && !L.phone.pattern.test(cmd.phone)) check.fail('/phone', 'must be a phone number');
  if (!present(cmd.email) && !present(cmd.phone)) check.fail('/email', 'an email or a phone is required');
  check.string('/message', cmd.message, { optional: true, min: 0, max: L.message });
  if (cmd.consent !== true) check.fail('/consent', 'must be true');
  check.throwIfAny('Invalid lead');
};

/** A lead is stored against the vehicle's garage, with its `lead.created` event in the same transaction. */
export const makeSubmitLead =
  ({ vehicles, uow }: { vehicles: Pick<VehicleRepository, 'findPublicById'>; uow: UnitOfWork }) =>
  async (cmd: SubmitLeadCommand): Promise<Lead> => {
    checkLead(cmd);
    const vehicle = await vehicles.findPublicById(cmd.vehicleId, null);
    if (!vehicle) throw new NotFoundError('Vehicle not found');
    return uow.run(async (tx) => {
      const lead = await tx.leads.create({
        garageId: vehicle.garageId,
        vehicleId: vehicle.id,
        name: cmd.name,
        email: cmd.email ?? null,
        phone: cmd.phone ?? null,
        message: cmd.message ?? null,
        consent: true,
      });
      await tx.outbox.enqueue({
        garageId: vehicle.garageId,
        type: 'lead.created',
        data: {
          id: lead.id,
          vehicleId: lead.vehicleId,
          vehicleReference: vehicle.reference,
          name: lead.name,
          email: lead.email,
          phone: lead.phone,
          message: lead.message,
          createdAt: lead.createdAt.toISOString(),
        },
      });
      return lead;
    });
  };
