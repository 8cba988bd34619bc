import type { Clock } from '../kernel/clock.port.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import { NotFoundError } from '../kernel/errors.js';
import { eraseEventData, NOTHING_ERASED, type ErasureCounts } from './customer-records.js';
import { recordsNaming, type CustomerCommand } from './export-customer-data.js';
import type { PersonalDataUnitOfWork } from './personal-data-store.port.js';

export interface CustomerErasure {
  erasedAt: string;
  live: ErasureCounts;
  sandbox: ErasureCounts;
}

/**
 * `customer erase` (GDPR article 17): the person's name, email, phone and free text become `"[erased]"` in the
 * garage's appointments, leads and quotes and in the stored payloads of the events about them, in one transaction,
 * and the erasure is recorded without the email. No event is written: connectors learn nothing new about the person,
 * and the feed and the deliveries keep listing the events, with `"[erased]"` where the person was.
 */
export const makeEraseCustomerData =
  ({ garages, uow, clock }: { garages: Pick<GarageRepository, 'findBySlug'>; uow: PersonalDataUnitOfWork; clock: Clock }) =>
  async (cmd: CustomerCommand): Promise<CustomerErasure> => {
    const garage = await garages.findBySlug(cmd.garageSlug);
    if (!garage) throw new NotFoundError(`Garage ${cmd.garageSlug} not found`);
    const at = clock.now();
    const eraseIn = (garageId: string) =>
      uow.run(async (tx): Promise<ErasureCounts> => {
        const records = await recordsNaming(tx, garageId, cmd.email);
        const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);
        const events = await tx.eventsAbout(garageId, [...ids(records.appointments), ...ids(records.leads), ...ids(records.quotes)]);
        for (const event of events) await tx.replaceEventData(event.id, eraseEventData(event.data));
        const counts = {
          appointments: await tx.eraseAppointments(ids(records.appointments)),
          leads: await tx.eraseLeads(ids(records.leads)),
          quotes: await tx.eraseQuotes(ids(records.quotes)),
          events: events.length,
        };
        await tx.recordErasure({ garageId, at, counts });
        return counts;
      });
    // The sandbox (docs/reference/contract.md §9) is a garage of its own: it is erased the same way, by its id.
    return { erasedAt: at.toISOString(), live: await eraseIn(garage.id), sandbox: NOTHING_ERASED };
  };
