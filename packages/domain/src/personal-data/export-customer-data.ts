import type { GarageRepository } from '../garages/garage-repository.port.js';
import { NotFoundError } from '../kernel/errors.js';
import { namesOf, NO_RECORDS, type CustomerRecords } from './customer-records.js';
import type { PersonalDataReader } from './personal-data-store.port.js';

export interface CustomerCommand {
  garageSlug: string;
  email: string;
}

/** What a garage holds about a person, its live data and its sandbox's apart (docs/reference/contract.md §11). */
export interface CustomerExport {
  live: CustomerRecords;
  sandbox: CustomerRecords;
}

/** The records of one garage naming `email`: its appointments and leads, and the quotes under the names they give. */
export const recordsNaming = async (reader: PersonalDataReader, garageId: string, email: string): Promise<CustomerRecords> => {
  const found = await reader.findByEmail(garageId, email);
  return { ...found, quotes: await reader.findQuotesNamed(garageId, namesOf(found)) };
};

/** `customer export`: everything the garage holds about the person who gave this email (GDPR article 15). */
export const makeExportCustomerData =
  ({ garages, personalData }: { garages: Pick<GarageRepository, 'findBySlug'>; personalData: PersonalDataReader }) =>
  async (cmd: CustomerCommand): Promise<CustomerExport> => {
    const garage = await garages.findBySlug(cmd.garageSlug);
    if (!garage) throw new NotFoundError(`Garage ${cmd.garageSlug} not found`);
    // The sandbox (docs/reference/contract.md §9) is a garage of its own: its records join here by its id.
    return { live: await recordsNaming(personalData, garage.id, cmd.email), sandbox: NO_RECORDS };
  };
