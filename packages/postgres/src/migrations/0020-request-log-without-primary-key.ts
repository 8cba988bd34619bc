import { sql, type Kysely } from 'kysely';

/**
 * The request log without a primary key: its `id` is a random UUID, and a unique index on it put each of the
 * thousands of rows a second the log takes at a random place of a large index, the costliest part of writing a
 * record. Nothing reads a record by its `id` alone: a page continues after `(created_at, id)` within an integration's
 * index, and retention deletes rows by their physical address. `replica identity full` lets a logical replication
 * that publishes the table replicate retention's deletes without a key. Both statements change the catalog and drop
 * one index: a moment's lock, however large the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table request_log drop constraint request_log_pkey`.execute(db);
  await sql`alter table request_log replica identity full`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table request_log replica identity default`.execute(db);
  await sql`alter table request_log add primary key (id)`.execute(db);
}
