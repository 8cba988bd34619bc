import { sql, type Kysely } from 'kysely';

/**
 * The appointment lifecycle (docs/reference/contract.md §4.6): a status, when it last changed, and why it was cancelled.
 * - `appointments_place_idx` serves the occupancy query of booking, rescheduling and availability: the appointments
 *   that hold a place (any status but cancelled) and start in a window, read from the index alone (`ends_at` included).
 *   It replaces the plain `(garage_id, starts_at)` index, which also covered cancelled rows.
 * - `appointments_sync_idx` serves the list: `(garage_id, updated_at, id)`, the keyset order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('appointments')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('booked'))
    .addColumn('updated_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('cancellation_reason', 'text')
    .execute();
  await db.schema
    .alterTable('appointments')
    .addCheckConstraint('appointments_status_check', sql`status in ('booked', 'confirmed', 'cancelled', 'completed', 'no_show')`)
    .execute();
  await sql`update appointments set updated_at = created_at`.execute(db);
  await sql`alter table appointments alter column updated_at set not null, alter column updated_at set default date_trunc('milliseconds', now())`.execute(db);
  await sql`create index appointments_place_idx on appointments (garage_id, starts_at) include (ends_at) where status <> 'cancelled'`.execute(db);
  await db.schema.dropIndex('appointments_garage_time_idx').execute();
  await db.schema.createIndex('appointments_sync_idx').on('appointments').columns(['garage_id', 'updated_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('appointments_sync_idx').execute();
  await db.schema.createIndex('appointments_garage_time_idx').on('appointments').columns(['garage_id', 'starts_at']).execute();
  await db.schema.dropIndex('appointments_place_idx').execute();
  await db.schema.alterTable('appointments').dropConstraint('appointments_status_check').execute();
  await db.schema
    .alterTable('appointments')
    .dropColumn('cancellation_reason')
    .dropColumn('cancelled_at')
    .dropColumn('updated_at')
    .dropColumn('status')
    .execute();
}
