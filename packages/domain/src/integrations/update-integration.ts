import type { Integration, SyncToggle } from './integration.js';
import { NotFoundError } from '../kernel/errors.js';
import type { IntegrationChanges, IntegrationRepository } from './integration-repository.port.js';
import { Checker } from '../kernel/validation.js';
import { checkWebhookUrl, togglesOf } from './integration-settings.js';
import type { DestinationPolicy } from '../webhooks/webhook-destination.js';

export interface UpdateIntegrationCommand {
  name?: string;
  sync?: SyncToggle[];
  webhookUrl?: string | null;
  /** A supported API version (checked by the caller): the pin moves up or down. */
  apiVersion?: string;
}

/** `integration update`: name, toggles, webhook URL set or removed; what is not given stays as it is. */
export const makeUpdateIntegration =
  ({ integrations, destinations }: { integrations: Pick<IntegrationRepository, 'update'>; destinations: DestinationPolicy }) =>
  async (id: string, cmd: UpdateIntegrationCommand): Promise<Integration> => {
    const check = new Checker();
    if (cmd.name !== undefined) check.string('/name', cmd.name, { max: 120 });
    checkWebhookUrl(check, cmd.webhookUrl, destinations);
    check.throwIfAny('Invalid integration');
    const changes: IntegrationChanges = {
      ...(cmd.name === undefined ? {} : { name: cmd.name }),
      ...(cmd.sync === undefined ? {} : { sync: togglesOf(cmd.sync) }),
      ...(cmd.webhookUrl === undefined ? {} : { webhookUrl: cmd.webhookUrl }),
      ...(cmd.apiVersion === undefined ? {} : { apiVersion: cmd.apiVersion }),
    };
    const updated = await integrations.update(id, changes);
    if (!updated) throw new NotFoundError(`Integration ${id} not found or revoked`);
    return updated;
  };
