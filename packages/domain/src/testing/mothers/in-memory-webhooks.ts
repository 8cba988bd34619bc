import { randomUUID } from 'node:crypto';
import type { Clock, EncryptedSecret, Integration, IntegrationRepository } from '../../index.js';
import type { WebhookStoreHarness } from '../contracts/webhook-store.contract.js';
import { makeInMemoryWebhooks } from '../fakes/in-memory-webhooks.js';
import { newIntegration, type TestIntegrationOptions } from './integrations.js';

/** Just enough of the integration repository for the webhook fakes: targets, secrets, revocation. */
export const fakeIntegrations = () => {
  const rows = new Map<string, { integration: Integration; secret: EncryptedSecret; plaintext: string }>();
  const repo: Pick<IntegrationRepository, 'listWebhookTargets' | 'getWebhookSecret' | 'findById'> = {
    async listWebhookTargets(garageId, requireToggle) {
      return [...rows.values()]
        .map((r) => r.integration)
        .filter((i) => i.garageId === garageId && i.webhookUrl !== null && i.revokedAt === null)
        .filter((i) => requireToggle === undefined || i.sync[requireToggle]);
    },
    async getWebhookSecret(id) {
      return rows.get(id)?.secret ?? null;
    },
    async findById(id) {
      return rows.get(id)?.integration ?? null;
    },
  };
  return {
    repo,
    add(garageId: string, options: TestIntegrationOptions) {
      const { input, plaintext } = newIntegration(garageId, options);
      const integration: Integration = {
        // The id the secret is sealed to.
        id: input.id,
        garageId,
        name: input.name,
        sync: input.sync,
        webhookUrl: input.webhookUrl,
        apiVersion: input.apiVersion ?? '2026-11-21',
        revokedAt: null,
        lastUsedAt: null,
        createdAt: new Date(),
        mode: 'live',
      };
      rows.set(integration.id, { integration, secret: input.webhookSecret, plaintext });
      return { id: integration.id, secret: input.webhookSecret, plaintext };
    },
    revoke(id: string) {
      const row = rows.get(id);
      if (row) row.integration = { ...row.integration, revokedAt: new Date() };
    },
    clear: () => rows.clear(),
  };
};

/** The in-memory store behind the contract suite's harness. */
export const inMemoryHarness = (clock: Clock): WebhookStoreHarness => {
  const integrations = fakeIntegrations();
  let store = makeInMemoryWebhooks({ integrations: integrations.repo, clock });
  const harness: WebhookStoreHarness = {
    get outbox() {
      return store.outbox;
    },
    get queue() {
      return store.queue;
    },
    async reset() {
      integrations.clear();
      store = makeInMemoryWebhooks({ integrations: integrations.repo, clock });
    },
    createGarage: async () => randomUUID(),
    createIntegration: async (garageId, options) => integrations.add(garageId, options),
    revokeIntegration: async (id) => integrations.revoke(id),
  };
  return harness;
};
