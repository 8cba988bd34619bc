import type { Integration } from './integration.js';
import { NotFoundError } from '../kernel/errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import type { IntegrationRepository } from './integration-repository.port.js';

export const makeListIntegrations =
  ({
    garages,
    integrations,
  }: {
    garages: Pick<GarageRepository, 'findBySlug'>;
    integrations: Pick<IntegrationRepository, 'listByGarage'>;
  }) =>
  async (garageSlug: string): Promise<Integration[]> => {
    const garage = await garages.findBySlug(garageSlug);
    if (!garage) throw new NotFoundError(`Garage ${garageSlug} not found`);
    return integrations.listByGarage(garage.id);
  };
