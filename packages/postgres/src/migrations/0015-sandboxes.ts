import { sql, type Kysely } from 'kysely';

/**
 * Sandboxes (docs/reference/contract.md §9, docs/connectors/testing-your-integration.md). A sandbox is a garage of its
 * own, `sandbox_of` its live garage, so that every query's garage scoping isolates it. An integration's test side is
 * an integration row of the sandbox garage, `live_integration_id` its live integration: the test key, the test
 * webhook URL and secret, deliveries, the events feed and Idempotency-Key scopes are then those of that row, kept
 * apart by the columns that already scope them.
 *
 * A sandbox holds at most `appointment_limit` appointments and `quote_limit` quotes (null: no limit, every live
 * garage). A trigger refuses the insert past them with the check violation named `sandbox_limit`, which the adapter
 * maps to SANDBOX_LIMIT; a live garage's insert only reads its own garage row, which the foreign key check reads too.
 * The row is locked for the count, so concurrent sandbox inserts cannot pass the limit together.
 *
 * `copied_at` is the time of a sandbox's last catalog copy and `live_copied_through` the newest live catalog write it
 * holds: a reset then copies only what the live garage changed since (docs/operators/performance.md).
 *
 * Expand only: nullable columns, a foreign key added `not valid` then validated (no long lock on a large table), a
 * unique index on integrations (a small table). Integrations that exist keep working; their sandbox is made when the
 * operator first asks for their test key (`integration rotate-key ID --test`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`set local lock_timeout = '5s'`.execute(db);
  await sql`alter table garages add column sandbox_of uuid, add column appointment_limit integer, add column quote_limit integer,
    add column copied_at timestamptz, add column live_copied_through timestamptz`.execute(db);
  await sql`alter table garages add constraint garages_sandbox_of_fkey foreign key (sandbox_of) references garages (id) on delete cascade not valid`.execute(db);
  await sql`alter table garages validate constraint garages_sandbox_of_fkey`.execute(db);
  await sql`create index garages_sandbox_of_idx on garages (sandbox_of) where sandbox_of is not null`.execute(db);

  await sql`alter table integrations add column live_integration_id uuid`.execute(db);
  await sql`alter table integrations add constraint integrations_live_integration_fkey
    foreign key (live_integration_id) references integrations (id) on delete cascade not valid`.execute(db);
  await sql`alter table integrations validate constraint integrations_live_integration_fkey`.execute(db);
  await sql`create unique index integrations_live_integration_key on integrations (live_integration_id) where live_integration_id is not null`.execute(db);

  for (const { table, column } of [
    { table: 'appointments', column: 'appointment_limit' },
    { table: 'quotes', column: 'quote_limit' },
  ]) {
    await sql
      .raw(
        `create function ${table}_sandbox_limit() returns trigger language plpgsql as $$
         declare
           most integer;
         begin
           select ${column} into most from garages where id = new.garage_id;
           if most is null then
             return new;
           end if;
           perform 1 from garages where id = new.garage_id for no key update;
           if (select count(*) from ${table} where garage_id = new.garage_id) >= most then
             raise exception 'the sandbox holds the most ${table} it may' using errcode = '23514', constraint = 'sandbox_limit';
           end if;
           return new;
         end
         $$`,
      )
      .execute(db);
    await sql
      .raw(`create trigger ${table}_sandbox_limit before insert on ${table} for each row execute function ${table}_sandbox_limit()`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['appointments', 'quotes']) {
    await sql.raw(`drop trigger ${table}_sandbox_limit on ${table}`).execute(db);
    await sql.raw(`drop function ${table}_sandbox_limit()`).execute(db);
  }
  await sql`drop index integrations_live_integration_key`.execute(db);
  await sql`alter table integrations drop column live_integration_id`.execute(db);
  await sql`drop index garages_sandbox_of_idx`.execute(db);
  await sql`alter table garages drop column sandbox_of, drop column appointment_limit, drop column quote_limit,
    drop column copied_at, drop column live_copied_through`.execute(db);
}
