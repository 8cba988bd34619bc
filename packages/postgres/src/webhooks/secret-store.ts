import { BOUND_NONCE_PREFIX, type EncryptedSecret, type WebhookSecretStore } from '@garage/domain';
import type { Kysely } from 'kysely';
import { withErrorMapping } from '../errors.js';
import type { Database } from '../schema.js';

/** The four columns of a stored secret, by field of `EncryptedSecret`. */
const COLUMN = {
  keyId: 'webhook_secret_key_id',
  nonce: 'webhook_secret_nonce',
  ciphertext: 'webhook_secret_ciphertext',
  tag: 'webhook_secret_tag',
} as const;

/** Webhook secrets on `integrations` (revoked integrations included: their rows still hold ciphertext). */
export const makeWebhookSecretStore = (db: Kysely<Database>): WebhookSecretStore =>
  withErrorMapping({
    async listOutdated(keyId, limit, afterId) {
      let query = db
        .selectFrom('integrations')
        .select(['id', COLUMN.keyId, COLUMN.nonce, COLUMN.ciphertext, COLUMN.tag])
        .where((eb) => eb.or([eb(COLUMN.keyId, '<>', keyId), eb(COLUMN.nonce, 'not like', `${BOUND_NONCE_PREFIX}%`)]));
      if (afterId !== null) query = query.where('id', '>', afterId);
      const rows = await query.orderBy('id').limit(limit).execute();
      return rows.map((row) => ({
        integrationId: row.id,
        secret: {
          keyId: row.webhook_secret_key_id,
          nonce: row.webhook_secret_nonce,
          ciphertext: row.webhook_secret_ciphertext,
          tag: row.webhook_secret_tag,
        },
      }));
    },

    async replace(integrationId, expected: EncryptedSecret, next: EncryptedSecret) {
      const result = await db
        .updateTable('integrations')
        .set({
          [COLUMN.keyId]: next.keyId,
          [COLUMN.nonce]: next.nonce,
          [COLUMN.ciphertext]: next.ciphertext,
          [COLUMN.tag]: next.tag,
        })
        .where('id', '=', integrationId)
        .where(COLUMN.keyId, '=', expected.keyId)
        .where(COLUMN.nonce, '=', expected.nonce)
        .where(COLUMN.ciphertext, '=', expected.ciphertext)
        .where(COLUMN.tag, '=', expected.tag)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
  });
