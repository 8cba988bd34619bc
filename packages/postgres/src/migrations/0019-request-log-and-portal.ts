import { sql, type Kysely } from 'kysely';

/**
 * The request log and the connector portal (docs/reference/contract.md §10). New tables only, so the release still
 * serving never sees them; their indexes are built with them, on empty tables.
 *
 * - `request_log`: what the API saw of each key-authenticated request. Written in multi-row batches off the request
 *   path, read by integration and mode, newest first, and emptied by age (REQUEST_LOG_RETENTION_DAYS) in short batches
 *   through the `created_at` index. No foreign key: a batch insert then checks nothing per row, and a record never
 *   outlives its retention anyway.
 * - `portal_links`: single-use links an operator hands to a connector developer; the secret is kept as its SHA-256.
 * - `portal_sessions`: the sessions they open, named by the SHA-256 of the cookie's value, so every instance honours
 *   them and a read of the table opens none.
 * - `portal_actions`: every action taken in the portal, for the overview and `integration audit`.
 * - `integrations.api_key_ending`: a key's last 4 characters, all the portal shows of it (null for older keys).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`set local lock_timeout = '5s'`.execute(db);
  // A nullable column without a default: a change of the catalog only, no rewrite of the table.
  await sql`alter table integrations add column api_key_ending text`.execute(db);
  await sql`create table request_log (
    id uuid primary key default gen_random_uuid(),
    integration_id uuid not null,
    mode text not null check (mode in ('live', 'test')),
    request_id text not null,
    created_at timestamptz not null,
    method text not null,
    route text not null,
    path text not null,
    query_parameters text[] not null,
    status smallint not null,
    error_code text,
    api_version text not null,
    duration_ms integer not null,
    error_body jsonb
  )`.execute(db);
  await sql`create index request_log_integration_idx on request_log (integration_id, mode, created_at desc, id desc)`.execute(db);
  await sql`create index request_log_request_id_idx on request_log (integration_id, request_id)`.execute(db);
  await sql`create index request_log_created_at_idx on request_log (created_at)`.execute(db);

  await sql`create table portal_links (
    id uuid primary key default gen_random_uuid(),
    integration_id uuid not null references integrations (id) on delete cascade,
    token_hash text not null unique,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    used_at timestamptz
  )`.execute(db);
  await sql`create index portal_links_integration_idx on portal_links (integration_id)`.execute(db);

  await sql`create table portal_sessions (
    id uuid primary key default gen_random_uuid(),
    integration_id uuid not null references integrations (id) on delete cascade,
    session_hash text not null unique,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    ended_at timestamptz
  )`.execute(db);
  await sql`create index portal_sessions_integration_idx on portal_sessions (integration_id)`.execute(db);

  await sql`create table portal_actions (
    id uuid primary key default gen_random_uuid(),
    integration_id uuid not null references integrations (id) on delete cascade,
    session_id uuid references portal_sessions (id) on delete set null,
    mode text not null check (mode in ('live', 'test')),
    action text not null,
    detail jsonb not null default '{}',
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index portal_actions_integration_idx on portal_actions (integration_id, created_at desc, id desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table portal_actions`.execute(db);
  await sql`drop table portal_sessions`.execute(db);
  await sql`drop table portal_links`.execute(db);
  await sql`drop table request_log`.execute(db);
  await sql`alter table integrations drop column api_key_ending`.execute(db);
}
