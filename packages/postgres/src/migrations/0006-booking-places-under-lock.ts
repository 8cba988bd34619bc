import { sql, type Kysely } from 'kysely';

/**
 * `booking_places_under_lock`: takes a booking lock, then reads the places held in a window (the port's
 * `BookingLocks.acquireAndListOverlapping`). One round trip instead of two for every booking and reschedule.
 * A function because one statement cannot do both: a statement's snapshot is taken before it waits for the lock, and
 * would miss the bookings committed meanwhile. In a VOLATILE PL/pgSQL function under READ COMMITTED, each query takes
 * a fresh snapshot, so the read sees every booking committed before the lock was granted.
 *
 * The window's conditions are those of `listOverlapping` (appointment-repository.ts): places held (any status but
 * cancelled, as a literal to match `appointments_place_idx`), starting after `earliest` (the longest duration before
 * `from`, so that the index reads a window) and before `to`, ending after `from`. Times come back as epoch
 * milliseconds, as there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function booking_places_under_lock(text, uuid, timestamptz, timestamptz, timestamptz, uuid)`.execute(db);
}
