import { randomUUID } from 'node:crypto';
import type { Integration, SyncToggle } from './integration.js';
import { NotFoundError } from '../kernel/errors.js';
import type { UnitOfWork } from '../kernel/unit-of-work.port.js';
import { generateApiKey, generateWebhookSecret, keyEnding, sha256Hex } from './api-key.js';
import type { SecretBox } from '../kernel/secret-box.js';
import { Checker } from '../kernel/validation.js';
import { checkWebhookUrl, togglesOf } from './integration-settings.js';
import type { DestinationPolicy } from '../webhooks/webhook-destination.js';
import { provisionSandbox, type ProvisionedSandbox } from '../sandbox/provision-sandbox.js';

export interface CreateIntegrationCommand {
  garageSlug: string;
  name: string;
  sync: SyncToggle[];
  webhookUrl: string | null;
  /** The API version to pin; the caller (CLI) checks it is supported. Absent: the first version. */
  apiVersion?: string;
}

/** The only moment the keys and the webhook secrets exist in clear: they are returned once, never stored. */
export interface CreatedIntegration {
  integration: Integration;
  apiKey: string;
  webhookSecret: string;
  /** Its sandbox, test key and test webhook secret (docs/reference/contract.md §9). */
  sandbox: ProvisionedSandbox;
}

export const makeCreateIntegration =
  ({
    uow,
    secretBox,
    destinations,
  }: {
    uow: UnitOfWork;
    secretBox: SecretBox;
    /** Where webhooks may go: an address literal it refuses is refused here, at configuration time. */
    destinations: DestinationPolicy;
  }) =>
  async (cmd: CreateIntegrationCommand): Promise<CreatedIntegration> => {
    const check = new Checker();
    check.string('/name', cmd.name, { max: 120 });
    checkWebhookUrl(check, cmd.webhookUrl, destinations);
    check.throwIfAny('Invalid integration');
    // The integration and its sandbox exist together or not at all.
    return uow.run(async (tx) => {
      const garage = await tx.garages.findBySlug(cmd.garageSlug);
      if (!garage) throw new NotFoundError(`Garage ${cmd.garageSlug} not found`);
      const apiKey = generateApiKey();
      const webhookSecret = generateWebhookSecret();
      // The id is chosen here: the webhook secret is sealed to it.
      const id = randomUUID();
      const integration = await tx.integrations.create({
        id,
        garageId: garage.id,
        name: cmd.name,
        sync: togglesOf(cmd.sync),
        webhookUrl: cmd.webhookUrl,
        ...(cmd.apiVersion === undefined ? {} : { apiVersion: cmd.apiVersion }),
        apiKeyHash: sha256Hex(apiKey),
        apiKeyEnding: keyEnding(apiKey),
        webhookSecret: secretBox.encrypt(webhookSecret, id),
      });
      const sandbox = await provisionSandbox(tx, integration, secretBox);
      return { integration, apiKey, webhookSecret, sandbox };
    });
  };
