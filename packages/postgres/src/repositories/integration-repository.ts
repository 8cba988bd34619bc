import type { Integration, IntegrationRepository, SyncToggle } from '@garage/domain';
import { InvalidReferenceError, isUuid } from '@garage/domain';
import type { IntegrationRow, Executor } from '../schema.js';

/** The columns an `Integration` is made of: the key hash and the secret's ciphertext never leave this file. */
const COLUMNS = [
  'id', 'garage_id', 'name', 'sync_appointments', 'sync_catalog', 'sync_stock', 'webhook_url', 'revoked_at',
  'last_used_at', 'created_at',
] as const;

const TOGGLE_COLUMN = {
  appointments: 'sync_appointments',
  catalog: 'sync_catalog',
  stock: 'sync_stock',
} as const satisfies Record<SyncToggle, keyof IntegrationRow>;

const toIntegration = (row: Pick<IntegrationRow, (typeof COLUMNS)[number]>): Integration => ({
  id: row.id,
  garageId: row.garage_id,
  name: row.name,
  sync: { appointments: row.sync_appointments, catalog: row.sync_catalog, stock: row.sync_stock },
  webhookUrl: row.webhook_url,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
  createdAt: row.created_at,
});

export const makeIntegrationRepository = (db: Executor): IntegrationRepository => {
  const select = () => db.selectFrom('integrations').select(COLUMNS);

  return {
    async create(input) {
      if (!isUuid(input.garageId)) throw new InvalidReferenceError('Unknown garage');
      const row = await db
        .insertInto('integrations')
        .values({
          garage_id: input.garageId,
          name: input.name,
          api_key_hash: input.apiKeyHash,
          sync_appointments: input.sync.appointments,
          sync_catalog: input.sync.catalog,
          sync_stock: input.sync.stock,
          webhook_url: input.webhookUrl,
          webhook_secret_key_id: input.webhookSecret.keyId,
          webhook_secret_nonce: input.webhookSecret.nonce,
          webhook_secret_ciphertext: input.webhookSecret.ciphertext,
          webhook_secret_tag: input.webhookSecret.tag,
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

    async findActiveByKeyHash(apiKeyHash) {
      const row = await select()
        .where('api_key_hash', '=', apiKeyHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row ? toIntegration(row) : null;
    },

    async listByGarage(garageId) {
      if (!isUuid(garageId)) return [];
      const rows = await select().where('garage_id', '=', garageId).orderBy('created_at').orderBy('id').execute();
      return rows.map(toIntegration);
    },

    async revoke(id, at) {
      if (!isUuid(id)) return null;
      const row = await db
        .updateTable('integrations')
        .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? toIntegration(row) : null;
    },

    async rotateKey(id, apiKeyHash, at) {
      if (!isUuid(id)) return null;
      const row = await db
        .updateTable('integrations')
        .set({ api_key_hash: apiKeyHash, key_rotated_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returning(COLUMNS)
        .executeTakeFirst();
      return row ? toIntegration(row) : null;
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

    async listWebhookTargets(garageId, requireToggle) {
      if (!isUuid(garageId)) return [];
      let query = select()
        .where('garage_id', '=', garageId)
        .where('revoked_at', 'is', null)
        .where('webhook_url', 'is not', null);
      if (requireToggle) query = query.where(TOGGLE_COLUMN[requireToggle], '=', true);
      const rows = await query.orderBy('created_at').orderBy('id').execute();
      return rows.map(toIntegration);
    },
  };
};
