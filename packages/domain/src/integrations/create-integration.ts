import type { Integration, SyncToggle } from './integration.js';
import { NotFoundError } from '../kernel/errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import type { IntegrationRepository } from './integration-repository.port.js';
import { generateApiKey, generateWebhookSecret, sha256Hex } from './api-key.js';
import type { SecretBox } from '../kernel/secret-box.js';
import { Checker } from '../kernel/validation.js';
import { isHttpUrl, togglesOf } from './integration-settings.js';

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
  }: {
    garages: Pick<GarageRepository, 'findBySlug'>;
    integrations: Pick<IntegrationRepository, 'create'>;
    secretBox: SecretBox;
  }) =>
  async (cmd: CreateIntegrationCommand): Promise<CreatedIntegration> => {
    const check = new Checker();
    check.string('/name', cmd.name, { max: 120 });
    if (cmd.webhookUrl !== null && !isHttpUrl(cmd.webhookUrl)) check.fail('/webhookUrl', 'must be an http(s) URL');
    check.throwIfAny('Invalid integration');
    const garage = await garages.findBySlug(cmd.garageSlug);
    if (!garage) throw new NotFoundError(`Garage ${cmd.garageSlug} not found`);
    const apiKey = generateApiKey();
    const webhookSecret = generateWebhookSecret();
    const integration = await integrations.create({
      garageId: garage.id,
      name: cmd.name,
      sync: togglesOf(cmd.sync),
      webhookUrl: cmd.webhookUrl,
      ...(cmd.apiVersion === undefined ? {} : { apiVersion: cmd.apiVersion }),
      apiKeyHash: sha256Hex(apiKey),
      webhookSecret: secretBox.encrypt(webhookSecret),
    });
    return { integration, apiKey, webhookSecret };
  };
