import type { Lead } from './lead.js';
import { NotFoundError } from '../kernel/errors.js';
import { transactional, type TransactionalUseCase } from '../kernel/transactional-use-case.js';
import type { UnitOfWork, Work } from '../kernel/unit-of-work.port.js';
import { CONTACT_LIMITS, checkContact } from '../kernel/contact.js';
import { Checker } from '../kernel/validation.js';

export interface SubmitLeadCommand {
  vehicleId: string;
  name: string;
  email?: string | null;
  phone?: string | null;
  message?: string | null;
  consent: boolean;
}

/**
 * The limits of a lead (docs/reference/contract.md §4.3), exported so that the HTTP schema states the same numbers. A contact is
 * checked with the same rules as an appointment's customer.
 */
export const LEAD_FIELD_LIMITS = { ...CONTACT_LIMITS, message: 2000 } as const;

const checkLead = (cmd: SubmitLeadCommand): void => {
  const check = new Checker();
  checkContact(check, cmd, { at: '', missingAt: '/email' });
  check.string('/message', cmd.message, { optional: true, min: 0, max: LEAD_FIELD_LIMITS.message });
  if (cmd.consent !== true) check.fail('/consent', 'must be true');
  check.throwIfAny('Invalid lead');
};

/** A lead is stored against the vehicle's garage, with its `lead.created` event in the same transaction. */
export const makeSubmitLead = ({ uow }: { uow: UnitOfWork }): TransactionalUseCase<SubmitLeadCommand, Lead> => transactional(uow, submitLeadWork);

const submitLeadWork = (cmd: SubmitLeadCommand): Work<Lead> => {
  checkLead(cmd);
  return async (tx) => {
    const vehicle = await tx.vehicles.findPublicById(cmd.vehicleId, null);
    if (!vehicle) throw new NotFoundError('Vehicle not found');
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
        vehicle: { id: vehicle.id, reference: vehicle.reference, make: vehicle.make, model: vehicle.model, year: vehicle.year },
        name: lead.name,
        email: lead.email,
        phone: lead.phone,
        message: lead.message,
        createdAt: lead.createdAt.toISOString(),
      },
    });
    return lead;
  };
};
