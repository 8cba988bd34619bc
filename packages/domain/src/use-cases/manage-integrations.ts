import type { Integration, SyncToggle } from '../entities/integration.js';
import { NotFoundError } from '../errors.js';
import type { GarageRepository } from '../ports/garage-repository.port.js';
import type { IntegrationRepository } from '../ports/integration-repository.port.js';
import type { Clock } from '../ports/clock.port.js';
import { generateApiKey, generateWebhookSecret, sha256Hex } from '../services/api-key.js';
import type { SecretBox } from '../services/secret-box.js';
import { Checker } from '../services/validate.js';

export interface CreateIntegrationCommand {
  garageSlug: string;
  name: string;
  sync: SyncToggle[];
  webhookUrl: string | null;
}

/** The only moment the key and the webhook secret exist in clear: they are returned once, never stored. */
export interface CreatedIntegration {
  integration: Integration;
  apiKey: string;
  webhookSecret: string;
}

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

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
      sync: {
        appointments: cmd.sync.includes('appointments'),
        catalog: cmd.sync.includes('catalog'),
        stock: cmd.sync.includes('stock'),
      },
      webhookUrl: cmd.webhookUrl,
      apiKeyHash: sha256Hex(apiKey),
      webhookSecret: secretBox.encrypt(webhookSecret),
    });
    return { integration, apiKey, webhookSecret };
  };

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

export const makeRevokeIntegration =
  ({ integrations, clock }: { integrations: Pick<IntegrationRepository, 'revoke'>; clock: Clock }) =>
  async (id: string): Promise<Integration> => {
    const revoked = await integrations.revoke(id, clock.now());
    if (!revoked) throw new NotFoundError(`Integration ${id} not found`);
    return revoked;
  };

export const makeRotateKey =
  ({ integrations, clock }: { integrations: Pick<IntegrationRepository, 'rotateKey'>; clock: Clock }) =>
  async (id: string): Promise<{ integration: Integration; apiKey: string }> => {
    const apiKey = generateApiKey();
    const integration = await integrations.rotateKey(id, sha256Hex(apiKey), clock.now());
    if (!integration) throw new NotFoundError(`Integration ${id} not found or revoked`);
    return { integration, apiKey };
  };
