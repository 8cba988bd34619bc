import { sql, type Kysely } from 'kysely';
import { applySqlRules } from '../sql-rules/index.js';

/**
 * The SQL that repeats the domain's rules, written from the domain (src/sql-rules, docs/contributors/sql-rules.md):
 *
 * - `lock_booking_day`: the day's booking lock and its version, written once; `acquireBookingLock` and
 *   `booking_places_under_lock` both call it.
 * - `booking_places` with the domain's place-holding statuses (the same predicate as before, so that
 *   `appointments_place_idx` still serves it).
 * - `garage_calendar`, the calendar read with the garage as a row of `garages`, decoded by the driver's type parsers.
 *   `availability_calendar` stays for the release that still calls it while this one rolls out.
 * - `appointment_days_changed`: a change to appointments made outside the application moves the versions of its days.
 * - `enqueue_webhook_event` with one branch per sync toggle of the domain.
 *
 * Everything here replaces functions and adds triggers, so the previous release keeps working while this one rolls
 * out. Adding a trigger takes a brief lock on `appointments`; nothing is rewritten or scanned.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await applySqlRules(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['inserted', 'updated', 'deleted']) {
    await sql.raw(`drop trigger appointments_days_${event} on appointments`).execute(db);
  }
  await sql`drop function appointment_days_changed()`.execute(db);
  await sql`drop function garage_calendar(uuid, date, date)`.execute(db);
  await sql`
    create or replace function booking_places_under_lock(
      day date, garage uuid, earliest timestamptz, window_from timestamptz, window_to timestamptz, exclude uuid
    ) returns table (starts_ms float8, ends_ms float8)
    language plpgsql volatile
    set plan_cache_mode = force_generic_plan as $$
    begin
      insert into booking_days as d (garage_id, local_date) values (garage, day)
        on conflict (garage_id, local_date) do update set version = d.version + 1;
      return query select p.starts_ms, p.ends_ms from booking_places(garage, earliest, window_from, window_to, exclude) p;
    end
    $$`.execute(db);
  await sql`drop function lock_booking_day(uuid, date)`.execute(db);
}

/** What `sqlRulesDigest()` named when this migration was written: a check compares it with today's. */
export const sqlRulesDigest = '341353c5b18e4b07';
