import { randomUUID } from 'node:crypto';
import type { Garage } from '../garages/garage.js';
import type { Integration } from '../integrations/integration.js';
import { generateApiKey, generateWebhookSecret, keyEnding, sha256Hex } from '../integrations/api-key.js';
import { NotFoundError } from '../kernel/errors.js';
import type { SecretBox } from '../kernel/secret-box.js';
import type { Transaction } from '../kernel/unit-of-work.port.js';
import { SANDBOX_LIMITS, sandboxSlugFor } from './sandbox.js';

/** A sandbox just made: the test side's key and webhook secret exist in clear only here, to be shown once. */
export interface ProvisionedSandbox {
  garage: Garage;
  /** The test side of the integration: an integration of the sandbox garage. */
  integration: Integration;
  testApiKey: string;
  testWebhookSecret: string;
}

/**
 * Gives a live integration its sandbox (docs/reference/contract.md §9), inside the caller's transaction: a garage
 * copied from the live one, and the integration's test side in it, with a test key and a test webhook secret of its
 * own and the live side's name, toggles and version pin. It has no webhook URL until the operator sets one.
 */
export const provisionSandbox = async (tx: Transaction, live: Integration, secretBox: SecretBox): Promise<ProvisionedSandbox> => {
  const liveGarage = await tx.garages.findById(live.garageId);
  if (!liveGarage) throw new NotFoundError('Garage not found');
  const garage = await tx.sandboxes.create({ liveGarageId: liveGarage.id, slug: sandboxSlugFor(liveGarage.slug), limits: SANDBOX_LIMITS });
  const testApiKey = generateApiKey();
  const testWebhookSecret = generateWebhookSecret();
  // Chosen here: the webhook secret is sealed to it.
  const id = randomUUID();
  const integration = await tx.integrations.create({
    id,
    garageId: garage.id,
    name: live.name,
    sync: live.sync,
    webhookUrl: null,
    apiVersion: live.apiVersion,
    apiKeyHash: sha256Hex(testApiKey),
    apiKeyEnding: keyEnding(testApiKey),
    webhookSecret: secretBox.encrypt(testWebhookSecret, id),
    liveIntegrationId: live.id,
  });
  return { garage, integration, testApiKey, testWebhookSecret };
};

/** The live integration `id` names (not revoked), or NOT_FOUND: operators name integrations by their live id. */
export const liveIntegration = async (tx: Transaction, id: string): Promise<Integration> => {
  const live = await tx.integrations.findById(id);
  if (!live || live.revokedAt !== null || live.mode !== 'live') throw new NotFoundError(`Integration ${id} not found or revoked`);
  return live;
};

/**
 * The test side of a live integration, to rotate one of its secrets; an integration made before sandboxes existed has
 * none, and gets its sandbox now (`provisioned`), whose fresh key and secret are then the first ones.
 */
export const testSideToRotate = async (
  tx: Transaction,
  id: string,
  secretBox: SecretBox,
): Promise<{ live: Integration } & ({ testSide: Integration; provisioned: null } | { testSide: null; provisioned: ProvisionedSandbox })> => {
  const live = await liveIntegration(tx, id);
  const testSide = await tx.integrations.findTestSide(live.id);
  return testSide ? { live, testSide, provisioned: null } : { live, testSide: null, provisioned: await provisionSandbox(tx, live, secretBox) };
};
