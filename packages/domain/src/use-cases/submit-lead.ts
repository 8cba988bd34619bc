import type { Lead } from '../entities/lead.js';
import { NotFoundError } from '../errors.js';
import type { Clock } from '../ports/clock.port.js';
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

/** A lead is stored against the vehicle's garage, with its `lead.created` event in the same transaction. */
export const makeSubmitLead =
  ({ vehicles, uow }: { vehicles: Pick<VehicleRepository, 'findPublicById'>; uow: UnitOfWork; clock?: Clock }) =>
  async (cmd: SubmitLeadCommand): Promise<Lead> => {
    const check = new Checker();
    check.string('/name', cmd.name, { max: 120 });
    if (!cmd.email && !cmd.phone) check.fail('/email', 'email or phone is required');
    check.string('/message', cmd.message, { optional: true, min: 0, max: 2000 });
    if (cmd.consent !== true) check.fail('/consent', 'must be true');
    check.throwIfAny('Invalid lead');
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
