import type { Kysely } from 'kysely';

/**
 * The fleet's version probe (list-version-probe.ts) reads the newest `updated_at` of a garage's vehicles, sold ones
 * included (a sale removes a vehicle from the list). Products and stock already have `(garage_id, updated_at, …)`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('vehicles_garage_updated_idx').on('vehicles').columns(['garage_id', 'updated_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('vehicles_garage_updated_idx').execute();
}
