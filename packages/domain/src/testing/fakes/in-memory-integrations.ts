import {
  BOUND_NONCE_PREFIX,
  DuplicateError,
  InvalidReferenceError,
  systemClock,
  type Clock,
  type EncryptedSecret,
  type GarageRepository,
  type Integration,
  type IntegrationRepository,
  type WebhookRequest,
  type WebhookResponse,
  type WebhookSecretStore,
  type WebhookSender,
} from '../../index.js';

interface Row {
  integration: Integration;
  /** Set on the test side of a live integration. */
  liveIntegrationId: string | null;
  keyHash: string;
  previousKey: { hash: string; until: Date } | null;
  secret: EncryptedSecret;
  previousSecret: { secret: EncryptedSecret; until: Date } | null;
}

export interface InMemoryIntegrations {
  integrations: IntegrationRepository;
  /** The webhook secrets as stored, for re-encryption. */
  secrets: WebhookSecretStore;
}

/**
 * Integrations, their keys and their webhook secrets in memory, behaving as the Postgres adapter does (its contract
 * suite describes it): a key hash is used once, a rotated key or secret keeps working until its overlap ends on `clock`, a revoked integration
 * is found by id only, and revoking twice keeps the first time. The pending deliveries a revocation or a new URL
 * touches are the delivery queue's (`makeInMemoryWebhooks`), not this fake's.
 */
export const makeInMemoryIntegrations = ({
  clock = systemClock,
  firstApiVersion = '2026-11-21',
  garages,
}: {
  clock?: Clock;
  firstApiVersion?: string;
  /** The garages integrations must belong to (INVALID_REFERENCE otherwise); without it every garage exists. */
  garages?: Pick<GarageRepository, 'findById'>;
} = {}): InMemoryIntegrations => {
  const rows = new Map<string, Row>();
  const copy = (integration: Integration): Integration => structuredClone(integration);
  const active = (id: string) => {
    const row = rows.get(id);
    return row && row.integration.revokedAt === null ? row : null;
  };
  const within = (until: Date) => until.getTime() > clock.nowMs();
  const testSideOf = (liveIntegrationId: string) => [...rows.values()].find((r) => r.liveIntegrationId === liveIntegrationId) ?? null;

  const integrations: IntegrationRepository = {
    async create(input) {
      if (garages && !(await garages.findById(input.garageId))) throw new InvalidReferenceError('Unknown garage');
      if ([...rows.values()].some((r) => r.keyHash === input.apiKeyHash)) throw new DuplicateError('An integration with this API key already exists');
      const integration: Integration = {
        id: input.id,
        garageId: input.garageId,
        name: input.name,
        sync: { ...input.sync },
        webhookUrl: input.webhookUrl,
        apiVersion: input.apiVersion ?? firstApiVersion,
        revokedAt: null,
        lastUsedAt: null,
        createdAt: clock.now(),
        mode: input.liveIntegrationId ? 'test' : 'live',
      };
      rows.set(input.id, {
        integration,
        liveIntegrationId: input.liveIntegrationId ?? null,
        keyHash: input.apiKeyHash,
        previousKey: null,
        secret: input.webhookSecret,
        previousSecret: null,
      });
      return copy(integration);
    },
    async findById(id) {
      const row = rows.get(id);
      return row ? copy(row.integration) : null;
    },
    async findTestSide(liveIntegrationId) {
      const row = testSideOf(liveIntegrationId);
      return row ? copy(row.integration) : null;
    },
    async listSandboxes(garageId) {
      const sandboxes = [];
      for (const row of rows.values()) {
        const live = row.liveIntegrationId === null ? null : rows.get(row.liveIntegrationId);
        if (!live || live.integration.garageId !== garageId) continue;
        const sandbox = await garages?.findById(row.integration.garageId);
        sandboxes.push({
          liveIntegrationId: live.integration.id,
          garageSlug: sandbox?.slug ?? row.integration.garageId,
          webhookUrl: row.integration.webhookUrl,
        });
      }
      return sandboxes;
    },
    async findActiveByKeyHash(hash) {
      const row = [...rows.values()].find(
        (r) => r.integration.revokedAt === null && (r.keyHash === hash || (r.previousKey?.hash === hash && within(r.previousKey.until))),
      );
      return row ? copy(row.integration) : null;
    },
    async listByGarage(garageId) {
      return [...rows.values()].filter((r) => r.integration.garageId === garageId).map((r) => copy(r.integration));
    },
    async countByApiVersion() {
      const counts: Record<string, number> = {};
      for (const { integration } of rows.values()) {
        if (integration.revokedAt === null) counts[integration.apiVersion] = (counts[integration.apiVersion] ?? 0) + 1;
      }
      return counts;
    },
    async revoke(id, at) {
      const row = rows.get(id);
      if (!row) return null;
      row.integration.revokedAt ??= at;
      const testSide = testSideOf(id);
      if (testSide) testSide.integration.revokedAt ??= at;
      return copy(row.integration);
    },
    async update(id, changes) {
      const row = active(id);
      if (!row) return null;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      row.integration = { ...row.integration, ...structuredClone(defined) };
      // The test side shares the live side's name, toggles and version pin; its webhook URL is its own.
      const testSide = testSideOf(id);
      if (testSide) {
        const { webhookUrl: _own, ...shared } = defined;
        testSide.integration = { ...testSide.integration, ...structuredClone(shared) };
      }
      return copy(row.integration);
    },
    async rotateKey(id, apiKeyHash, at, overlapMs) {
      const row = active(id);
      if (!row) return null;
      const until = new Date(at.getTime() + overlapMs);
      row.previousKey = { hash: row.keyHash, until };
      row.keyHash = apiKeyHash;
      return { integration: copy(row.integration), previousKeyExpiresAt: until };
    },
    async rotateWebhookSecret(id, secret, at, overlapMs) {
      const row = active(id);
      if (!row) return null;
      const until = new Date(at.getTime() + overlapMs);
      row.previousSecret = { secret: row.secret, until };
      row.secret = secret;
      return { integration: copy(row.integration), previousSecretExpiresAt: until };
    },
    async touchLastUsed(id, at) {
      const row = rows.get(id);
      // Concurrent requests record their times in any order: the latest stays.
      if (row && (row.integration.lastUsedAt === null || row.integration.lastUsedAt < at)) row.integration.lastUsedAt = at;
    },
    async getWebhookSecret(id) {
      return rows.get(id)?.secret ?? null;
    },
    async getWebhookSecrets(id) {
      const row = rows.get(id);
      if (!row) return null;
      return { current: row.secret, previous: row.previousSecret && within(row.previousSecret.until) ? row.previousSecret.secret : null };
    },
    async listWebhookTargets(garageId, requireToggle) {
      return [...rows.values()]
        .map((r) => r.integration)
        .filter((i) => i.garageId === garageId && i.webhookUrl !== null && i.revokedAt === null)
        .filter((i) => requireToggle === undefined || i.sync[requireToggle])
        .map(copy);
    },
  };

  const secrets: WebhookSecretStore = {
    async listOutdated(keyId, limit, afterId) {
      return [...rows.entries()]
        .filter(([id, row]) => (afterId === null || id > afterId) && (row.secret.keyId !== keyId || !row.secret.nonce.startsWith(BOUND_NONCE_PREFIX)))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .slice(0, limit)
        .map(([integrationId, row]) => ({ integrationId, secret: row.secret }));
    },
    async replace(integrationId, expected, next) {
      const row = rows.get(integrationId);
      if (!row || JSON.stringify(row.secret) !== JSON.stringify(expected)) return false;
      row.secret = next;
      return true;
    },
  };

  return { integrations, secrets };
};

/** A webhook sender that sends nothing: it records each request and answers what `answer` says (204 by default). */
export const makeRecordingSender = (answer: (request: WebhookRequest) => WebhookResponse = () => ({ statusCode: 204 })) => {
  const sent: WebhookRequest[] = [];
  const sender: WebhookSender = {
    async send(request) {
      sent.push(request);
      return answer(request);
    },
  };
  return { sender, sent };
};
