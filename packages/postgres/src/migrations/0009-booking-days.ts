import { sql, type Kysely } from 'kysely';

/**
 * Availability from a per-day model (docs/operators/performance.md, "Availability"):
 *
 * - `booking_days`: one row per garage and local date that a booking, reschedule, cancellation or status change has
 *   touched. The row is the date's booking lock (the port `BookingLocks`): taking the lock is an upsert that moves
 *   `version` up and holds the row lock until the transaction ends, so bookings of one date queue on it as they queued
 *   on the advisory lock before, and the version moves with the commit of the change and only then. Availability keeps
 *   what it computed for a date per instance while the date's version stays, read in one indexed query per request.
 * - `booking_places`: the one statement of "the places held in a window" (any status but cancelled, as a literal to
 *   match `appointments_place_idx`; starting after `earliest`, the longest duration before `window_from`, so that the
 *   index reads a window; before `window_to`; ending after `window_from`; without `exclude`). A SQL function the
 *   planner inlines into its caller, so the index serves it as it served the statement it replaces: availability and
 *   `listOverlapping` select from it, and so does the lock function below.
 * - `booking_places_under_lock` (migration 0006's, now on the day's row): the lock of the date `day`, then the read of
 *   `booking_places` with the arguments that follow it, in one round trip. A function because one statement cannot do
 *   both: a statement's snapshot is taken before it waits for the lock, and would miss the bookings committed
 *   meanwhile; in a VOLATILE PL/pgSQL function under READ COMMITTED, each query takes a fresh snapshot, so the read
 *   sees every booking committed before the lock was granted.
 * - `availability_calendar`: what every availability request reads first, in one call: the garage, its closures over
 *   the dates asked for and the versions of those dates (as json, so that the function's signature does not repeat
 *   the garage's columns). A PL/pgSQL function because its queries' plans are kept per connection, where the same
 *   statement sent as text was planned on every request: about a third of the Postgres CPU per call (measured on
 *   this machine, ~90–140 µs instead of ~270–330 µs). STABLE: its three reads share the calling statement's snapshot.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table booking_days (
      garage_id uuid not null references garages (id) on delete cascade,
      local_date date not null,
      version bigint not null default 1,
      primary key (garage_id, local_date)
    )`.execute(db);

  await sql`
    create function booking_places(garage uuid, earliest timestamptz, window_from timestamptz, window_to timestamptz, exclude uuid)
    returns table (starts_ms float8, ends_ms float8)
    language sql stable as $$
      select (extract(epoch from a.starts_at) * 1000)::float8, (extract(epoch from a.ends_at) * 1000)::float8
        from appointments a
       where a.garage_id = garage and a.status <> 'cancelled'
         and a.starts_at > earliest and a.starts_at < window_to and a.ends_at > window_from
         and (exclude is null or a.id <> exclude)
    $$`.execute(db);

  await sql`drop function booking_places_under_lock(text, uuid, timestamptz, timestamptz, timestamptz, uuid)`.execute(db);
  await sql`
    create function booking_places_under_lock(
      day date, garage uuid, earliest timestamptz, window_from timestamptz, window_to timestamptz, exclude uuid
    ) returns table (starts_ms float8, ends_ms float8)
    language plpgsql volatile as $$
    begin
      insert into booking_days as d (garage_id, local_date) values (garage, day)
        on conflict (garage_id, local_date) do update set version = d.version + 1;
      return query select p.starts_ms, p.ends_ms from booking_places(garage, earliest, window_from, window_to, exclude) p;
    end
    $$`.execute(db);

  await sql`
    create function availability_calendar(garage uuid, first_date date, last_date date)
    returns table (garage_row json, closures json, versions json)
    language plpgsql stable as $$
    begin
      return query select
        (select to_json(g) from garages g where g.id = garage),
        coalesce((select json_agg(json_build_object('id', c.id, 'garage_id', c.garage_id, 'from_date', c.from_date,
                                                    'to_date', c.to_date, 'reason', c.reason) order by c.from_date, c.id)
                    from garage_closures c
                   where c.garage_id = garage and c.from_date <= last_date and c.to_date >= first_date), '[]'),
        coalesce((select json_object_agg(to_char(d.local_date, 'YYYY-MM-DD'), d.version)
                    from booking_days d
                   where d.garage_id = garage and d.local_date between first_date and last_date), '{}');
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function availability_calendar(uuid, date, date)`.execute(db);
  await sql`drop function booking_places_under_lock(date, uuid, timestamptz, timestamptz, timestamptz, uuid)`.execute(db);
  await sql`drop function booking_places(uuid, timestamptz, timestamptz, timestamptz, uuid)`.execute(db);
  await sql`drop table booking_days`.execute(db);
  // Migration 0006's function, as it was.
  await sql`
    create function booking_places_under_lock(
      lock_name text, garage uuid, earliest timestamptz, window_from timestamptz, window_to timestamptz, exclude uuid
    ) returns table (starts_ms float8, ends_ms float8)
    language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended(lock_name, 0));
      return query
        select (extract(epoch from a.starts_at) * 1000)::float8, (extract(epoch from a.ends_at) * 1000)::float8
          from appointments a
         where a.garage_id = garage and a.status <> 'cancelled'
           and a.starts_at > earliest and a.starts_at < window_to and a.ends_at > window_from
           and (exclude is null or a.id <> exclude);
    end
    $$`.execute(db);
}
