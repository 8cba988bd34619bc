import { makeDeliveryQueue, makeOutbox, makeRepositories, type Db, type Executor } from '../index.js';
import { sql } from 'kysely';
import type { WebhookStoreHarness } from '@garage/domain/testing';
import { newGarage, newIntegration, type TestIntegrationOptions } from '@garage/domain/testing';

export const insertGarage = async (db: Executor): Promise<string> => (await newGarage(makeRepositories(db))).id;

/** The same integration the in-memory fake makes (`newIntegration`), stored through the adapter's repository. */
export const insertIntegration = async (db: Executor, garageId: string, options: TestIntegrationOptions) => {
  const { input, plaintext } = newIntegration(garageId, options);
  const created = await makeRepositories(db).integrations.create(input);
  return { id: created.id, secret: input.webhookSecret, plaintext };
};

/** The contract suite's view of one database: the pool-bound outbox and queue, and direct table setup. */
export const postgresHarness = (db: Db): WebhookStoreHarness => ({
  outbox: makeOutbox(db),
  queue: makeDeliveryQueue(db),
  reset: async () => {
    await sql`truncate garages cascade`.execute(db);
  },
  createGarage: () => insertGarage(db),
  createIntegration: (garageId, options) => insertIntegration(db, garageId, options),
  revokeIntegration: async (id) => {
    await makeRepositories(db).integrations.revoke(id, new Date());
  },
});
