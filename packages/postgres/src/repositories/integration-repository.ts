import type { EncryptedSecret, Integration, IntegrationRepository } from '@garage/domain';
import { InvalidReferenceError, isUuid } from '@garage/domain';
import { sql } from 'kysely';
import type { IntegrationRow, Executor } from '../schema.js';
import { SYNC_TOGGLE_COLUMNS } from './sync-toggle-columns.js';

/** The columns an `Integration` is made of: the key hash and the secret's ciphertext never leave this file. */
const COLUMNS = [
  'id', 'garage_id', 'name', 'sync_appointments', 'sync_catalog', 'sync_stock', 'webhook_url', 'api_version', 'revoked_at',
  'last_used_at', 'created_at', 'live_integration_id',
] as const;

const toIntegration = (row: Pick<IntegrationRow, (typeof COLUMNS)[number]>): Integration => ({
  id: row.id,
  garageId: row.garage_id,
  name: row.name,
  sync: { appointments: row.sync_appointments, catalog: row.sync_catalog, stock: row.sync_stock },
  webhookUrl: row.webhook_url,
  apiVersion: row.api_version,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
  createdAt: row.created_at,
  mode: row.live_integration_id === null ? 'live' : 'test',
});

const secretColumns = (secret: EncryptedSecret) => ({
  webhook_secret_key_id: secret.keyId,
  webhook_secret_nonce: secret.nonce,
  webhook_secret_ciphertext: secret.ciphertext,
  webhook_secret_tag: secret.tag,
});

/** The stored pieces of a secret, or null when a column is empty (no previous secret). */
const secretOf = (keyId: string | null, nonce: string | null, ciphertext: string | null, tag: string | null): EncryptedSecret | null =>
  keyId !== null && nonce !== null && ciphertext !== null && tag !== null ? { keyId, nonce, ciphertext, tag } : null;

/** The id of the test side of a live integration, as a subquery. */
const testSideOf = (liveId: string) => sql<string>`(select id from integrations where live_integration_id = ${liveId})`;

/** The previous key or secret counts while its expiry is ahead of the database's clock, the one all instances share. */
const dbNow = sql<Date>`now()`;

export const makeIntegrationRepository = (db: Executor): IntegrationRepository => {
  const select = () => db.selectFrom('integrations').select(COLUMNS);

  return {
    async create(input) {
      if (!isUuid(input.garageId)) throw new InvalidReferenceError('Unknown garage');
      const row = await db
        .insertInto('integrations')
        .values({
          id: input.id,
          garage_id: input.garageId,
          name: input.name,
          api_key_hash: input.apiKeyHash,
          ...(input.apiKeyEnding === undefined ? {} : { api_key_ending: input.apiKeyEnding }),
          sync_appointments: input.sync.appointments,
          sync_catalog: input.sync.catalog,
          sync_stock: input.sync.stock,
          webhook_url: input.webhookUrl,
          ...(input.apiVersion === undefined ? {} : { api_version: input.apiVersion }),
          ...secretColumns(input.webhookSecret),
          ...(input.liveIntegrationId === undefined ? {} : { live_integration_id: input.liveIntegrationId }),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return toIntegration(row);
    },

    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await select().where('id', '=', id).executeTakeFirst();
      return row ? toIntegration(row) : null;
    },

    async findTestSide(liveIntegrationId) {
      if (!isUuid(liveIntegrationId)) return null;
      const row = await select().where('live_integration_id', '=', liveIntegrationId).executeTakeFirst();
      return row ? toIntegration(row) : null;
    },

    async listSandboxes(garageId) {
      if (!isUuid(garageId)) return [];
      const rows = await db
        .selectFrom('integrations as t')
        .innerJoin('integrations as l', 'l.id', 't.live_integration_id')
        .innerJoin('garages as g', 'g.id', 't.garage_id')
        .select(['l.id as live_id', 'g.slug', 't.webhook_url'])
        .where('l.garage_id', '=', garageId)
        .execute();
      return rows.map((row) => ({ liveIntegrationId: row.live_id, garageSlug: row.slug, webhookUrl: row.webhook_url }));
    },

    async findActiveByKeyHash(apiKeyHash) {
      const row = await select()
        .where((eb) =>
          eb.or([
            eb('api_key_hash', '=', apiKeyHash),
            eb.and([eb('previous_api_key_hash', '=', apiKeyHash), eb('previous_key_expires_at', '>', dbNow)]),
          ]),
        )
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row ? toIntegration(row) : null;
    },

    async listByGarage(garageId) {
      if (!isUuid(garageId)) return [];
      const rows = await select().where('garage_id', '=', garageId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toIntegration);
    },

    async countByApiVersion() {
      const rows = await db
        .selectFrom('integrations')
        .select(['api_version', (eb) => eb.fn.countAll<string>().as('count')])
        .where('revoked_at', 'is', null)
        .where('live_integration_id', 'is', null)
        .groupBy('api_version')
        .execute();
      return Object.fromEntries(rows.map((row) => [row.api_version, Number(row.count)]));
    },

    async revoke(id, at) {
      if (!isUuid(id)) return null;
      // One statement: the revocation and the end of its pending deliveries commit together.
      const row = await db
        .with('cancelled', (qb) =>
          qb
            .updateTable('webhook_deliveries')
            .set({ status: 'cancelled', locked_until: null, updated_at: at })
            .where((eb) => eb.or([eb('integration_id', '=', id), eb('integration_id', 'in', testSideOf(id))]))
            .where('status', '=', 'pending')
            .returning('id'),
        )
        .with('test_side', (qb) =>
          qb
            .updateTable('integrations')
            .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
            .where('live_integration_id', '=', id)
            .returning('id'),
        )
        .updateTable('integrations')
        .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? toIntegration(row) : null;
    },

    async update(id, changes) {
      if (!isUuid(id)) return null;
      const { webhookUrl } = changes;
      const columns = {
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.sync === undefined
          ? {}
          : { sync_appointments: changes.sync.appointments, sync_catalog: changes.sync.catalog, sync_stock: changes.sync.stock }),
        ...(webhookUrl === undefined ? {} : { webhook_url: webhookUrl }),
        ...(changes.apiVersion === undefined ? {} : { api_version: changes.apiVersion }),
      };
      const { webhook_url: _own, ...shared } = columns as typeof columns & { webhook_url?: unknown };
      // The test side shares the live side's name, toggles and pin (the caller's transaction keeps both rows alike).
      if (Object.keys(shared).length > 0) {
        await db.updateTable('integrations').set(shared).where('live_integration_id', '=', id).where('revoked_at', 'is', null).execute();
      }
      if (webhookUrl === undefined) {
        const row =
          Object.keys(columns).length === 0
            ? await select().where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst()
            : await db.updateTable('integrations').set(columns).where('id', '=', id).where('revoked_at', 'is', null).returning(COLUMNS).executeTakeFirst();
        return row ? toIntegration(row) : null;
      }
      // One statement: a new URL takes the pending deliveries with it (the old endpoint may be gone for good), and no
      // URL cancels them (docs/reference/contract.md §5), committed with the change itself.
      const row = await db
        .with('moved', (w) =>
          w
            .updateTable('webhook_deliveries')
            .set(webhookUrl === null ? { status: 'cancelled', locked_until: null, updated_at: dbNow } : { url: webhookUrl, updated_at: dbNow })
            .where('integration_id', '=', id)
            .where('status', '=', 'pending')
            .where(sql<boolean>`exists (select 1 from integrations where id = ${id} and revoked_at is null)`)
            .returning('id'),
        )
        .updateTable('integrations')
        .set(columns)
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? toIntegration(row) : null;
    },

    async rotateKey(id, apiKeyHash, at, overlapMs, apiKeyEnding) {
      if (!isUuid(id)) return null;
      const previousKeyExpiresAt = new Date(at.getTime() + overlapMs);
      const row = await db
        .updateTable('integrations')
        .set((eb) => ({
          api_key_hash: apiKeyHash,
          api_key_ending: apiKeyEnding ?? null,
          key_rotated_at: at,
          previous_api_key_hash: overlapMs > 0 ? eb.ref('api_key_hash') : null,
          previous_key_expires_at: overlapMs > 0 ? previousKeyExpiresAt : null,
        }))
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? { integration: toIntegration(row), previousKeyExpiresAt } : null;
    },

    async rotateWebhookSecret(id, secret, at, overlapMs) {
      if (!isUuid(id)) return null;
      const previousSecretExpiresAt = new Date(at.getTime() + overlapMs);
      const keep = overlapMs > 0;
      const row = await db
        .updateTable('integrations')
        .set((eb) => ({
          ...secretColumns(secret),
          previous_webhook_secret_key_id: keep ? eb.ref('webhook_secret_key_id') : null,
          previous_webhook_secret_nonce: keep ? eb.ref('webhook_secret_nonce') : null,
          previous_webhook_secret_ciphertext: keep ? eb.ref('webhook_secret_ciphertext') : null,
          previous_webhook_secret_tag: keep ? eb.ref('webhook_secret_tag') : null,
          previous_secret_expires_at: keep ? previousSecretExpiresAt : null,
        }))
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? { integration: toIntegration(row), previousSecretExpiresAt } : null;
    },

    async touchLastUsed(id, at) {
      if (!isUuid(id)) return;
      // Instances touch concurrently and out of order; the time only moves forward.
      await db
        .updateTable('integrations')
        .set((eb) => ({ last_used_at: eb.fn('greatest', ['last_used_at', eb.val(at)]) }))
        .where('id', '=', id)
        .execute();
    },

    async getWebhookSecret(id) {
      if (!isUuid(id)) return null;
      const row = await db
        .selectFrom('integrations')
        .select(['webhook_secret_key_id', 'webhook_secret_nonce', 'webhook_secret_ciphertext', 'webhook_secret_tag'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row
        ? {
            keyId: row.webhook_secret_key_id,
            nonce: row.webhook_secret_nonce,
            ciphertext: row.webhook_secret_ciphertext,
            tag: row.webhook_secret_tag,
          }
        : null;
    },

    async getWebhookSecrets(id) {
      if (!isUuid(id)) return null;
      const row = await db
        .selectFrom('integrations')
        .select([
          'webhook_secret_key_id',
          'webhook_secret_nonce',
          'webhook_secret_ciphertext',
          'webhook_secret_tag',
          'previous_webhook_secret_key_id',
          'previous_webhook_secret_nonce',
          'previous_webhook_secret_ciphertext',
          'previous_webhook_secret_tag',
          sql<boolean>`coalesce(previous_secret_expires_at > now(), false)`.as('previous_valid'),
        ])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      return {
        current: secretOf(row.webhook_secret_key_id, row.webhook_secret_nonce, row.webhook_secret_ciphertext, row.webhook_secret_tag)!,
        previous: row.previous_valid
          ? secretOf(
              row.previous_webhook_secret_key_id,
              row.previous_webhook_secret_nonce,
              row.previous_webhook_secret_ciphertext,
              row.previous_webhook_secret_tag,
            )
          : null,
      };
    },

    async listWebhookTargets(garageId, requireToggle) {
      if (!isUuid(garageId)) return [];
      let query = select()
        .where('garage_id', '=', garageId)
        .where('revoked_at', 'is', null)
        .where('webhook_url', 'is not', null);
      if (requireToggle) query = query.where(SYNC_TOGGLE_COLUMNS[requireToggle], '=', true);
      const rows = await query.orderBy('created_at').orderBy('id').execute();
      return rows.map(toIntegration);
    },
  };
};
