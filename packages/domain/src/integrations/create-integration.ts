import { randomUUID } from 'node:crypto';
import type { Integration, SyncToggle } from './integration.js';
import { NotFoundError } from '../kernel/errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import type { IntegrationRepository } from './integration-repository.port.js';
import { generateApiKey, generateWebhookSecret, sha256Hex } from './api-key.js';
import type { SecretBox } from '../kernel/secret-box.js';
import { Checker } from '../kernel/validation.js';
import { checkWebhookUrl, togglesOf } from './integration-settings.js';
import type { DestinationPolicy } from '../webhooks/webhook-destination.js';

export interface CreateIntegrationCommand {
  garageSlug: string;
  name: string;
  sync: SyncToggle[];
  webhookUrl: string | null;
  /** The API version to pin; the caller (CLI) checks it is supported. Absent: the first version. */
  apiVersion?: string;
}

/** The only moment the key and the webhook secret exist in clear: they are returned once, never stored. */
export interface CreatedIntegration {
  integration: Integration;
  apiKey: string;
  webhookSecret: string;
}

export const makeCreateIntegration =
  ({
    garages,
    integrations,
    secretBox,
    destinations,
  }: {
    garages: Pick<GarageRepository, 'findBySlug'>;
    integrations: Pick<IntegrationRepository, 'create'>;
    secretBox: SecretBox;
    /** Where webhooks may go: an address literal it refuses is refused here, at configuration time. */
    destinations: DestinationPolicy;
  }) =>
  async (cmd: CreateIntegrationCommand): Promise<CreatedIntegration> => {
    const check = new Checker();
    check.string('/name', cmd.name, { max: 120 });
    checkWebhookUrl(check, cmd.webhookUrl, destinations);
    check.throwIfAny('Invalid integration');
    const garage = await garages.findBySlug(cmd.garageSlug);
    if (!garage) throw new NotFoundError(`Garage ${cmd.garageSlug} not found`);
    const apiKey = generateApiKey();
    const webhookSecret = generateWebhookSecret();
    // The id is chosen here: the webhook secret is sealed to it.
    const id = randomUUID();
    const integration = await integrations.create({
      id,
      garageId: garage.id,
      name: cmd.name,
      sync: togglesOf(cmd.sync),
      webhookUrl: cmd.webhookUrl,
      ...(cmd.apiVersion === undefined ? {} : { apiVersion: cmd.apiVersion }),
      apiKeyHash: sha256Hex(apiKey),
      webhookSecret: secretBox.encrypt(webhookSecret, id),
    });
    return { integration, apiKey, webhookSecret };
  };
