import { sql, type Kysely } from 'kysely';

/**
 * Data over time (docs/operators/retention.md, docs/operators/personal-data.md). Expand only: a new table, and the
 * indexes the retention job and its age metric read, built concurrently after the transaction (`concurrentIndexes`)
 * so that the webhook tables stay writable while they are built.
 *
 * `personal_data_erasures` records each `customer erase`: when, in which garage, how many rows of each kind — never
 * the email, which is what was asked to be forgotten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table personal_data_erasures (
      id uuid primary key default gen_random_uuid(),
      garage_id uuid not null references garages (id) on delete cascade,
      erased_at timestamptz not null,
      appointments integer not null,
      leads integer not null,
      quotes integer not null,
      events integer not null
    )`.execute(db);
  await sql`create index personal_data_erasures_garage_idx on personal_data_erasures (garage_id, erased_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table personal_data_erasures`.execute(db);
}

/** Each row's date, as the retention job deletes and the oldest-row metric reads (docs/operators/retention.md). */
export const concurrentIndexes = [
  { name: 'webhook_events_created_idx', definition: 'on webhook_events (created_at)' },
  { name: 'webhook_deliveries_created_idx', definition: 'on webhook_deliveries (created_at)' },
  { name: 'webhook_attempts_attempted_idx', definition: 'on webhook_attempts (attempted_at)' },
];
