import { sql, type Kysely } from 'kysely';

/**
 * A booking's statements planned once per connection instead of once per booking (measured with
 * pg_stat_statements: planning was about a third of the Postgres time of a booking).
 *
 * - `booking_places_under_lock`: PL/pgSQL keeps its queries' plans, but chose a custom plan for the read of
 *   `booking_places` on every call, inlining the SQL function again each time. Its generic plan is the same index
 *   range read of `appointments_place_idx` (the garage is always given), so the function keeps that one.
 * - `enqueue_webhook_event`: the transactional outbox's one write (the event, one pending delivery per integration
 *   that receives it, and the deliverers' wake-up at commit when a delivery was written), as a PL/pgSQL function so
 *   that its plans are kept too. `audience` is the integrations' sync toggle the event needs (`appointments`,
 *   `catalog`, `stock`), or null when every integration of the garage with a webhook receives it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter function booking_places_under_lock(date, uuid, timestamptz, timestamptz, timestamptz, uuid)
      set plan_cache_mode = force_generic_plan`.execute(db);

  await sql`
    create function enqueue_webhook_event(
      garage uuid, event_type text, payload jsonb, trace_parent text, audience text, channel text
    ) returns void
    language plpgsql volatile as $$
    declare
      event uuid;
    begin
      insert into webhook_events (garage_id, type, payload, trace_parent)
        values (garage, event_type, payload, trace_parent)
        returning id into event;
      insert into webhook_deliveries (event_id, integration_id, url)
        select event, i.id, i.webhook_url
          from integrations i
         where i.garage_id = garage and i.revoked_at is null and i.webhook_url is not null
           and case audience
                 when 'appointments' then i.sync_appointments
                 when 'catalog' then i.sync_catalog
                 when 'stock' then i.sync_stock
                 else true
               end;
      if found then
        perform pg_notify(channel, '');
      end if;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function enqueue_webhook_event(uuid, text, jsonb, text, text, text)`.execute(db);
  await sql`
    alter function booking_places_under_lock(date, uuid, timestamptz, timestamptz, timestamptz, uuid)
      reset plan_cache_mode`.execute(db);
}
