import type { Integration, SyncToggle } from './integration.js';
import { NotFoundError } from '../kernel/errors.js';
import type { IntegrationChanges } from './integration-repository.port.js';
import type { SecretBox } from '../kernel/secret-box.js';
import type { UnitOfWork } from '../kernel/unit-of-work.port.js';
import { Checker } from '../kernel/validation.js';
import { checkWebhookUrl, togglesOf } from './integration-settings.js';
import type { DestinationPolicy } from '../webhooks/webhook-destination.js';
import { provisionSandbox } from '../sandbox/provision-sandbox.js';

export interface UpdateIntegrationCommand {
  name?: string;
  sync?: SyncToggle[];
  webhookUrl?: string | null;
  /** The sandbox's webhook URL (docs/reference/contract.md §9), set or removed (null); the same rules as `webhookUrl`. */
  testWebhookUrl?: string | null;
  /** A supported API version (checked by the caller): the pin moves up or down. */
  apiVersion?: string;
}

/**
 * `integration update`: name, toggles, webhook URLs (live and test) set or removed; what is not given stays as it
 * is. Name, toggles and pin are the test side's too; an integration without a sandbox gets one for its test URL.
 */
export const makeUpdateIntegration =
  ({ uow, secretBox, destinations }: { uow: UnitOfWork; secretBox: SecretBox; destinations: DestinationPolicy }) =>
  async (id: string, cmd: UpdateIntegrationCommand): Promise<Integration> => {
    const check = new Checker();
    if (cmd.name !== undefined) check.string('/name', cmd.name, { max: 120 });
    checkWebhookUrl(check, cmd.webhookUrl, destinations);
    checkWebhookUrl(check, cmd.testWebhookUrl, destinations, '/testWebhookUrl');
    check.throwIfAny('Invalid integration');
    const changes: IntegrationChanges = {
      ...(cmd.name === undefined ? {} : { name: cmd.name }),
      ...(cmd.sync === undefined ? {} : { sync: togglesOf(cmd.sync) }),
      ...(cmd.webhookUrl === undefined ? {} : { webhookUrl: cmd.webhookUrl }),
      ...(cmd.apiVersion === undefined ? {} : { apiVersion: cmd.apiVersion }),
    };
    return uow.run(async (tx) => {
      const updated = await tx.integrations.update(id, changes);
      if (!updated || updated.mode !== 'live') throw new NotFoundError(`Integration ${id} not found or revoked`);
      if (cmd.testWebhookUrl !== undefined) {
        const testSide = (await tx.integrations.findTestSide(id)) ?? (await provisionSandbox(tx, updated, secretBox)).integration;
        await tx.integrations.update(testSide.id, { webhookUrl: cmd.testWebhookUrl });
      }
      return updated;
    });
  };
