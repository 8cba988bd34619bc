import { holdsPlaceSql } from './place-holding.js';

/**
 * The SQL that booking's hot path runs inside Postgres, written here from the domain's definitions and applied by
 * the migrations (docs/contributors/sql-rules.md).
 */

/**
 * Marks the transaction as one that names the days it changes: the application takes the lock of every day it
 * writes (the domain's rule), so the day-version trigger has nothing to add.
 */
const DAYS_NAMED = 'garage.booking_days_named';

/**
 * The booking lock of one garage and local date, the one place it is written: the date's row of `booking_days`,
 * upserted with its version moved up, so that the row lock is held until the transaction ends and the version moves
 * with its commit. Called by `acquireBookingLock` and by `booking_places_under_lock`.
 */
export const lockBookingDay = `
create or replace function lock_booking_day(garage uuid, day date) returns void
language plpgsql volatile as $$
begin
  insert into booking_days as d (garage_id, local_date) values (garage, day)
    on conflict (garage_id, local_date) do update set version = d.version + 1;
  perform set_config('${DAYS_NAMED}', 'on', true);
end
$$`;

/**
 * The places held in a window: appointments that hold a place, starting after `earliest` (the longest duration before
 * `window_from`, so that the index reads a window), before `window_to`, ending after `window_from`, without `exclude`.
 * A SQL function the planner inlines into its caller.
 */
export const bookingPlaces = `
create or replace function booking_places(garage uuid, earliest timestamptz, window_from timestamptz, window_to timestamptz, exclude uuid)
returns table (starts_ms float8, ends_ms float8)
language sql stable as $$
  select (extract(epoch from a.starts_at) * 1000)::float8, (extract(epoch from a.ends_at) * 1000)::float8
    from appointments a
   where a.garage_id = garage and ${holdsPlaceSql('a.status')}
     and a.starts_at > earliest and a.starts_at < window_to and a.ends_at > window_from
     and (exclude is null or a.id <> exclude)
$$`;

/**
 * The lock of the date `day`, then the read of `booking_places`, in one round trip. A VOLATILE PL/pgSQL function
 * under READ COMMITTED takes a fresh snapshot per query, so the read sees every booking committed before the lock was
 * granted. Its generic plan is the index range read (the garage is always given), kept once per connection.
 */
export const bookingPlacesUnderLock = `
create or replace function booking_places_under_lock(
  day date, garage uuid, earliest timestamptz, window_from timestamptz, window_to timestamptz, exclude uuid
) returns table (starts_ms float8, ends_ms float8)
language plpgsql volatile
set plan_cache_mode = force_generic_plan as $$
begin
  perform lock_booking_day(garage, day);
  return query select p.starts_ms, p.ends_ms from booking_places(garage, earliest, window_from, window_to, exclude) p;
end
$$`;

/**
 * The capacity rule (the domain's `hasRoom`) over the places `booking_places` holds in a window: some slot of `slots`
 * (epoch milliseconds) has at least `capacity` of those places overlapping `[slot, slot + slot_ms)`. The overlap is
 * `occupancy.ts`'s: a place starting before the slot ends and ending after it starts.
 */
const SLOT_FULL = `
    with held as materialized (select p.starts_ms, p.ends_ms from booking_places(garage, earliest, window_from, window_to, null) p)
    select 1 from unnest(slots) as s(slot)
     where (select count(*) from held h where h.starts_ms < s.slot + slot_ms and h.ends_ms > s.slot) >= capacity`;

/**
 * A booking's write in one statement (port `BookingWriter`): the day's lock, the capacity rule over the places held
 * after it was granted, then the appointment, its products and its event (`enqueue_webhook_event`). Answers false,
 * having written only the day's version, when a slot is full. Alone it is a transaction of its own; inside one it
 * holds the lock until that one ends. VOLATILE, so that the read after the lock sees every booking committed before
 * it was granted; its generic plan is the index range read, kept once per connection.
 */
export const bookIfRoom = `
create or replace function book_if_room(
  day date, garage uuid, earliest timestamptz, window_from timestamptz, window_to timestamptz,
  capacity integer, slot_ms float8, slots float8[],
  appointment_id uuid, integration uuid, starts timestamptz, ends timestamptz, duration integer, status text,
  customer_name text, customer_email text, customer_phone text, vehicle jsonb, notes text, external_ref text,
  stamped timestamptz, product_ids uuid[],
  event_type text, payload jsonb, trace_parent text, audience text, channel text
) returns boolean
language plpgsql volatile
set plan_cache_mode = force_generic_plan as $$
begin
  perform lock_booking_day(garage, day);
  if exists (${SLOT_FULL}) then
    return false;
  end if;
  insert into appointments (id, garage_id, integration_id, starts_at, ends_at, duration_minutes, status,
                            customer_name, customer_email, customer_phone, vehicle, notes, external_ref, created_at, updated_at)
    values (appointment_id, garage, integration, starts, ends, duration, status,
            customer_name, customer_email, customer_phone, vehicle, notes, external_ref, stamped, stamped);
  insert into appointment_products (appointment_id, garage_id, product_id)
    select appointment_id, garage, p from unnest(product_ids) as p;
  perform enqueue_webhook_event(garage, event_type, payload, trace_parent, audience, channel);
  return true;
end
$$`;

/**
 * What every availability request and every booking reads first, in one call: the garage as a row of `garages` (so
 * that the caller selects its columns and the driver decodes them by type), its closures over the dates asked for and
 * the versions of those dates. PL/pgSQL so that its plans are kept per connection; STABLE: its reads share the
 * calling statement's snapshot.
 */
export const garageCalendar = `
create or replace function garage_calendar(garage uuid, first_date date, last_date date)
returns table (garage_row garages, closures json, versions json)
language plpgsql stable as $$
begin
  return query select
    (select g from garages g where g.id = garage),
    coalesce((select json_agg(json_build_object('id', c.id, 'garage_id', c.garage_id, 'from_date', c.from_date,
                                                'to_date', c.to_date, 'reason', c.reason) order by c.from_date, c.id)
                from garage_closures c
               where c.garage_id = garage and c.from_date <= last_date and c.to_date >= first_date), '[]'),
    coalesce((select json_object_agg(to_char(d.local_date, 'YYYY-MM-DD'), d.version)
                from booking_days d
               where d.garage_id = garage and d.local_date between first_date and last_date), '{}');
end
$$`;

/** Moves the version of every local date that the appointments of the transition table `rows` touch. */
const bumpDaysOf = (rows: string) => `
    insert into booking_days as d (garage_id, local_date)
      select distinct a.garage_id, day::date
        from ${rows} a
        join garages g on g.id = a.garage_id,
             generate_series((a.starts_at at time zone g.timezone)::date, (a.ends_at at time zone g.timezone)::date, interval '1 day') day
       order by 1, 2
      on conflict (garage_id, local_date) do update set version = d.version + 1;`;

/**
 * A change to appointments made outside the application (a manual fix in SQL) moves the version of every local date
 * its appointments touched, before and after, so that no instance keeps serving the availability it had computed.
 * Every date from the local date of the start to that of the end is moved (one more than the domain's rule when an
 * appointment ends at midnight: a version moved needlessly only recomputes a day). Skipped in a transaction that took
 * a day's lock, where the application named the days itself.
 */
export const appointmentDaysChanged = `
create or replace function appointment_days_changed() returns trigger
language plpgsql volatile as $$
begin
  if current_setting('${DAYS_NAMED}', true) = 'on' then
    return null;
  end if;
  if tg_op in ('UPDATE', 'DELETE') then${bumpDaysOf('old_rows')}
  end if;
  if tg_op in ('INSERT', 'UPDATE') then${bumpDaysOf('new_rows')}
  end if;
  return null;
end
$$`;

/** One trigger per kind of change: a trigger with transition tables serves one event. */
export const appointmentDaysTriggers = [
  `create or replace trigger appointments_days_inserted after insert on appointments
     referencing new table as new_rows for each statement execute function appointment_days_changed()`,
  `create or replace trigger appointments_days_updated after update on appointments
     referencing old table as old_rows new table as new_rows for each statement execute function appointment_days_changed()`,
  `create or replace trigger appointments_days_deleted after delete on appointments
     referencing old table as old_rows for each statement execute function appointment_days_changed()`,
];
