import { randomBytes, randomUUID } from 'node:crypto';
import type { EncryptedSecret } from '@garage/domain';
import {
  connectPglite,
  makeDeliveryQueue,
  makeOutbox,
  migrateToLatest,
  type Database,
  type DatabaseHandle,
} from '@garage/postgres';
import { sql, type Kysely } from 'kysely';
import type { WebhookStoreHarness } from '../contracts/webhook-store.contract.js';
import { createTestDatabase } from '../databases.js';

export interface OpenedDatabase {
  handle: DatabaseHandle;
  /** Another connection to the same database (Postgres only): a second worker. */
  url?: string;
  drop(): Promise<void>;
}

export const webhookBackends: { name: 'postgres' | 'pglite'; open(): Promise<OpenedDatabase> }[] = [
  { name: 'postgres', open: () => createTestDatabase('pgwebhooks') },
  {
    name: 'pglite',
    open: async () => {
      const handle = await connectPglite(undefined);
      await migrateToLatest(handle.db);
      return { handle, drop: () => handle.close() };
    },
  },
];

export const insertGarage = async (db: Kysely<Database>): Promise<string> => {
  const row = await db
    .insertInto('garages')
    .values({
      slug: `g-${randomUUID()}`,
      name: 'Webhook garage',
      currency: 'EUR',
      timezone: 'Europe/Paris',
      slot_minutes: 30,
      capacity: 2,
      weekly_hours: '{}',
      min_notice_minutes: 0,
      horizon_days: 60,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
};

export const insertIntegration = async (
  db: Kysely<Database>,
  garageId: string,
  options: { webhookUrl: string | null; syncAppointments?: boolean; secret?: EncryptedSecret },
): Promise<{ id: string; secret: EncryptedSecret }> => {
  const secret = options.secret ?? {
    keyId: 'k1',
    nonce: randomBytes(12).toString('base64'),
    ciphertext: randomBytes(40).toString('base64'),
    tag: randomBytes(16).toString('base64'),
  };
  const row = await db
    .insertInto('integrations')
    .values({
      garage_id: garageId,
      name: 'Webhook integration',
      api_key_hash: randomBytes(32).toString('hex'),
      sync_appointments: options.syncAppointments ?? false,
      webhook_url: options.webhookUrl,
      webhook_secret_key_id: secret.keyId,
      webhook_secret_nonce: secret.nonce,
      webhook_secret_ciphertext: secret.ciphertext,
      webhook_secret_tag: secret.tag,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, secret };
};

/** The contract suite's view of one database: the pool-bound outbox and queue, and direct table setup. */
export const postgresHarness = (db: Kysely<Database>): WebhookStoreHarness => ({
  outbox: makeOutbox(db),
  queue: makeDeliveryQueue(db),
  reset: async () => {
    await sql`truncate garages cascade`.execute(db);
  },
  createGarage: () => insertGarage(db),
  createIntegration: (garageId, options) => insertIntegration(db, garageId, options),
  revokeIntegration: async (id) => {
    await db.updateTable('integrations').set({ revoked_at: new Date() }).where('id', '=', id).execute();
  },
});
