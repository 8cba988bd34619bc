import { randomUUID } from 'node:crypto';
import type { Integration, SyncToggle, SyncToggles } from '../entities/integration.js';
import { NotFoundError } from '../errors.js';
import type { GarageRepository } from '../ports/garage-repository.port.js';
import type { IntegrationChanges, IntegrationRepository } from '../ports/integration-repository.port.js';
import type { Clock } from '../ports/clock.port.js';
import { generateApiKey, generateWebhookSecret, sha256Hex } from '../services/api-key.js';
import type { SecretBox } from '../services/secret-box.js';
import { Checker } from '../services/validate.js';
import { webhookUrlProblem, type DestinationPolicy } from '../webhooks/webhook-destination.js';

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

const checkWebhookUrl = (check: Checker, url: string | null | undefined, destinations: DestinationPolicy): void => {
  if (url === undefined || url === null) return;
  const problem = webhookUrlProblem(url, destinations);
  if (problem !== null) check.fail('/webhookUrl', problem);
};

const togglesOf = (sync: readonly SyncToggle[]): SyncToggles => ({
  appointments: sync.includes('appointments'),
  catalog: sync.includes('catalog'),
  stock: sync.includes('stock'),
});

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
      apiKeyHash: sha256Hex(apiKey),
      webhookSecret: secretBox.encrypt(webhookSecret, id),
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

/** The longest overlap of a rotation: a week is enough to roll a key or a secret out; longer is a forgotten key. */
export const MAX_OVERLAP_HOURS = 168;

const overlapMs = (hours: number): number => {
  const check = new Checker();
  if (!Number.isFinite(hours) || hours < 0 || hours > MAX_OVERLAP_HOURS) {
    check.fail('/overlapHours', `must be a number of hours from 0 to ${MAX_OVERLAP_HOURS}`);
  }
  check.throwIfAny('Invalid overlap');
  return Math.round(hours * 3_600_000);
};

/** A new API key, shown once; the old one keeps working for `overlapHours` (0: it stops at once). */
export const makeRotateKey =
  ({ integrations, clock }: { integrations: Pick<IntegrationRepository, 'rotateKey'>; clock: Clock }) =>
  async (id: string, { overlapHours = 0 }: { overlapHours?: number } = {}) => {
    const overlap = overlapMs(overlapHours);
    const apiKey = generateApiKey();
    const rotated = await integrations.rotateKey(id, sha256Hex(apiKey), clock.now(), overlap);
    if (!rotated) throw new NotFoundError(`Integration ${id} not found or revoked`);
    return { ...rotated, apiKey };
  };

/** A new webhook secret, shown once; until the overlap ends every delivery carries both signatures (§5). */
export const makeRotateWebhookSecret =
  ({ integrations, secretBox, clock }: { integrations: Pick<IntegrationRepository, 'rotateWebhookSecret'>; secretBox: SecretBox; clock: Clock }) =>
  async (id: string, { overlapHours = 24 }: { overlapHours?: number } = {}) => {
    const overlap = overlapMs(overlapHours);
    const webhookSecret = generateWebhookSecret();
    const rotated = await integrations.rotateWebhookSecret(id, secretBox.encrypt(webhookSecret, id), clock.now(), overlap);
    if (!rotated) throw new NotFoundError(`Integration ${id} not found or revoked`);
    return { ...rotated, webhookSecret };
  };

export interface UpdateIntegrationCommand {
  name?: string;
  sync?: SyncToggle[];
  webhookUrl?: string | null;
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
    };
    const updated = await integrations.update(id, changes);
    if (!updated) throw new NotFoundError(`Integration ${id} not found or revoked`);
    return updated;
  };
