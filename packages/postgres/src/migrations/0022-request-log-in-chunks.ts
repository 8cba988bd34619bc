import { sql, type Kysely } from 'kysely';

/**
 * `request_log_chunks`: the request log kept as chunks, one row per integration, mode and batch, its records one JSON
 * text (src/request-log/request-chunks.ts). A row per record cost Postgres a tuple, three index entries and a jsonb
 * parse for each request a key made; a chunk costs that once per batch, and its text is compressed with the row.
 *
 * - `first_at`, `last_at`: the oldest and newest `receivedAt` of its records, never more than `CHUNK_SPAN_MS` apart.
 *   Pages are read newest first through the integration's index; retention deletes by `last_at`.
 * - `request_ids`: the request ids of its records that their time does not find (ids a connector sent); an id the API
 *   made is a UUIDv7 and found through the time it carries.
 *
 * A new table, written by this release only. The previous release's table, `request_log`, is still read (its records
 * stay visible until retention empties it) and dropped by a later release's contract migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table request_log_chunks (
    id bigint generated always as identity primary key,
    integration_id uuid not null,
    mode text not null check (mode in ('live', 'test')),
    first_at timestamptz not null,
    last_at timestamptz not null,
    request_ids text[] not null,
    records text not null
  )`.execute(db);
  // lz4 compresses a chunk's records for a third of pglz's CPU, and smaller. A server built without it (the embedded
  // PGlite) keeps the default.
  await sql`do $$ begin
    alter table request_log_chunks alter column records set compression lz4;
  exception when feature_not_supported then null;
  end $$`.execute(db);
  await sql`create index request_log_chunks_integration_idx on request_log_chunks (integration_id, mode, last_at desc, id desc)`.execute(db);
  await sql`create index request_log_chunks_last_at_idx on request_log_chunks (last_at)`.execute(db);
  await sql`create index request_log_chunks_request_ids_idx on request_log_chunks using gin (request_ids)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table request_log_chunks`.execute(db);
}
