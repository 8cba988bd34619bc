import type { Integration } from './integration.js';
import { NotFoundError } from '../kernel/errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import type { IntegrationRepository } from './integration-repository.port.js';

/** An integration as `integration list` shows it: with its sandbox, null until it has one. */
export type ListedIntegration = Integration & { sandbox: { garageSlug: string; webhookUrl: string | null } | null };

export const makeListIntegrations =
  ({
    garages,
    integrations,
  }: {
    garages: Pick<GarageRepository, 'findBySlug'>;
    integrations: Pick<IntegrationRepository, 'listByGarage' | 'listSandboxes'>;
  }) =>
  async (garageSlug: string): Promise<ListedIntegration[]> => {
    const garage = await garages.findBySlug(garageSlug);
    if (!garage) throw new NotFoundError(`Garage ${garageSlug} not found`);
    const [listed, sandboxes] = await Promise.all([integrations.listByGarage(garage.id), integrations.listSandboxes(garage.id)]);
    const byIntegration = new Map(sandboxes.map((s) => [s.liveIntegrationId, { garageSlug: s.garageSlug, webhookUrl: s.webhookUrl }]));
    return listed.map((integration) => ({ ...integration, sandbox: byIntegration.get(integration.id) ?? null }));
  };
