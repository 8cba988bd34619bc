import {
  audienceOf,
  InvalidReferenceError,
  isUuid,
  MAX_DURATION_MINUTES,
  placesSpan,
  type Appointment,
  type AppointmentReader,
  type AppointmentRepository,
  type AppointmentStatus,
  type AppointmentVehicle,
  type BookedInterval,
  type BookingLockKey,
  type BookingWriter,
} from '@garage/domain';
import { sql, type Selectable, type Transaction } from 'kysely';
import type { AppointmentsTable, Database, Executor } from '../schema.js';
import { OUTBOX_CHANNEL } from '../webhooks/outbox-channel.js';
import { activeTraceParent } from '../webhooks/trace-context.js';

type AppointmentRow = Selectable<AppointmentsTable>;

const toAppointment = (row: AppointmentRow, productIds: string[]): Appointment => ({
  id: row.id,
  garageId: row.garage_id,
  integrationId: row.integration_id,
  startsAt: row.starts_at,
  endsAt: row.ends_at,
  durationMinutes: row.duration_minutes,
  customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
  vehicle: row.vehicle as AppointmentVehicle | null,
  productIds,
  notes: row.notes,
  externalRef: row.external_ref,
  status: row.status as AppointmentStatus,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  cancelledAt: row.cancelled_at,
  cancellationReason: row.cancellation_reason,
});

/** The rows with their product ids: one more query for the whole page, not one per appointment. */
const withProducts = async (db: Executor, rows: AppointmentRow[]): Promise<Appointment[]> => {
  if (rows.length === 0) return [];
  const links = await db
    .selectFrom('appointment_products')
    .select(['appointment_id', 'product_id'])
    .where('appointment_id', 'in', rows.map((r) => r.id))
    .execute();
  const products = new Map<string, string[]>();
  for (const { appointment_id: id, product_id: productId } of links) products.set(id, [...(products.get(id) ?? []), productId]);
  return rows.map((row) => toAppointment(row, (products.get(row.id) ?? []).sort()));
};

/**
 * Every change moves `updated_at` past its previous value, even within one millisecond, so that a sync by
 * `updatedSince` or a keyset page positioned on the old value sees the change.
 */
const nextUpdatedAt = sql<Date>`greatest(date_trunc('milliseconds', clock_timestamp()), appointments.updated_at + interval '1 millisecond')`;

/**
 * Lower bound on starts_at of the places overlapping a window from `from` (the check constraint
 * appointments_duration_bounded guarantees it), so that the partial index appointments_place_idx reads a window
 * instead of the garage's whole history.
 */
const earliestStartOf = (from: Date) => new Date(from.getTime() - MAX_DURATION_MINUTES * 60_000);

/**
 * Epoch milliseconds as float8, not timestamptz: a busy month is thousands of rows, and pg's timestamp parser (a
 * regular expression per value) cost more than the rest of the availability computation.
 */
export interface PlaceRow {
  starts_ms: number;
  ends_ms: number;
}
export const toInterval = (row: PlaceRow): BookedInterval => ({ startsAt: new Date(Number(row.starts_ms)), endsAt: new Date(Number(row.ends_ms)) });

/**
 * The arguments of the function `booking_places` (src/sql-rules/booking-days.ts), the one statement of "the places
 * of a garage held over `[from, to)`" that booking, rescheduling, availability and `listOverlapping` all read through.
 */
export const placesArguments = (garageId: string, from: Date, to: Date, excludeId?: string) =>
  sql.join([garageId, earliestStartOf(from), from, to, excludeId !== undefined && isUuid(excludeId) ? excludeId : null]);

/**
 * `BookingLocks.acquireAndListOverlapping`: the day's lock (locks.ts) and the read of its places in one round trip,
 * through the function `booking_places_under_lock` (src/sql-rules/booking-days.ts).
 */
export const listOverlappingUnderLock = async (
  trx: Transaction<Database>,
  key: BookingLockKey,
  from: Date,
  to: Date,
  excludeId?: string,
): Promise<BookedInterval[]> => {
  if (!isUuid(key.garageId)) throw new InvalidReferenceError('Unknown garage');
  const { rows } = await sql<PlaceRow>`
    select starts_ms, ends_ms
      from booking_places_under_lock(${key.localDate}, ${placesArguments(key.garageId, from, to, excludeId)})`.execute(trx);
  return rows.map(toInterval);
};

/**
 * `BookingWriter`: the function `book_if_room` (src/sql-rules/booking-days.ts), one statement that takes the day's
 * lock, checks the capacity rule over the places held after it, and writes the appointment, its products and its
 * event. On the pool it is a transaction of its own; bound to a transaction, it holds the lock until that one ends.
 */
export const makeBookingWriter = (db: Executor): BookingWriter => ({
  async bookIfRoom({ lock, capacity, slotMinutes, slots, appointment: a, event }) {
    if (!isUuid(lock.garageId) || !isUuid(a.integrationId)) throw new InvalidReferenceError('Unknown garage or integration');
    if (!a.productIds.every(isUuid)) throw new InvalidReferenceError('Unknown product');
    const { from, to } = placesSpan(a.startsAt, slots, slotMinutes);
    const { rows } = await sql<{ booked: boolean }>`
      select book_if_room(${lock.localDate}::date, ${lock.garageId}, ${earliestStartOf(from)}, ${from}, ${to},
        ${capacity}, ${slotMinutes * 60_000}, ${slots.map((slot) => slot.getTime())}::float8[],
        ${a.id}, ${a.integrationId}, ${a.startsAt}, ${a.endsAt}, ${a.durationMinutes}, ${a.status},
        ${a.customer.name}, ${a.customer.email ?? null}, ${a.customer.phone ?? null}, ${a.vehicle === null ? null : JSON.stringify(a.vehicle)},
        ${a.notes}, ${a.externalRef}, ${a.createdAt}, ${a.productIds}::uuid[],
        ${event.type}, ${JSON.stringify(event.data)}, ${activeTraceParent()}, ${audienceOf(event.type)}, ${OUTBOX_CHANNEL}) as booked`.execute(db);
    return rows[0]?.booked === true;
  },
});

export const makeAppointmentReader = (db: Executor): AppointmentReader => ({
  async listOverlapping(garageId, from, to, excludeId) {
    if (!isUuid(garageId)) return [];
    const { rows } = await sql<PlaceRow>`select starts_ms, ends_ms from booking_places(${placesArguments(garageId, from, to, excludeId)})`.execute(db);
    return rows.map(toInterval);
  },

  async findById(garageId, id) {
    if (!isUuid(garageId) || !isUuid(id)) return null;
    const row = await db.selectFrom('appointments').selectAll().where('id', '=', id).where('garage_id', '=', garageId).executeTakeFirst();
    return row ? ((await withProducts(db, [row]))[0] ?? null) : null;
  },

  async list(q) {
    if (!isUuid(q.garageId)) return [];
    let query = db.selectFrom('appointments').selectAll().where('garage_id', '=', q.garageId);
    if (q.updatedSince) query = query.where('updated_at', '>=', q.updatedSince);
    if (q.startsFrom) query = query.where('starts_at', '>=', q.startsFrom);
    if (q.startsBefore) query = query.where('starts_at', '<', q.startsBefore);
    if (q.status !== null) query = query.where('status', '=', q.status);
    if (q.externalRef !== null) {
      if (!isUuid(q.externalRef.integrationId)) return [];
      query = query.where('integration_id', '=', q.externalRef.integrationId).where('external_ref', '=', q.externalRef.value);
    }
    if (q.after) {
      const { sortValue, id } = q.after;
      query = query.where((eb) => eb(eb.refTuple('updated_at', 'id'), '>', eb.tuple(sortValue, id)));
    }
    return withProducts(db, await query.orderBy('updated_at').orderBy('id').limit(q.limit).execute());
  },
});

/**
 * Appointments and their products, bound to a transaction only: an appointment and its products commit together,
 * and `findForUpdate` holds its row lock until commit. A product row carries the appointment's garage, and its
 * foreign key targets `products (garage_id, id)`: a product of another garage is a foreign-key violation, which the
 * error mapping turns into INVALID_REFERENCE. The `(integration_id, external_ref)` unique constraint gives DUPLICATE
 * the same way.
 */
export const makeAppointmentRepository = (trx: Transaction<Database>): AppointmentRepository => ({
  ...makeAppointmentReader(trx),

  async create(input) {
    if (!isUuid(input.garageId) || !isUuid(input.integrationId)) throw new InvalidReferenceError('Unknown garage or integration');
    if (!input.productIds.every(isUuid)) throw new InvalidReferenceError('Unknown product');
    const row = await trx
      .insertInto('appointments')
      .values({
        garage_id: input.garageId,
        integration_id: input.integrationId,
        starts_at: input.startsAt,
        ends_at: input.endsAt,
        duration_minutes: input.durationMinutes,
        customer_name: input.customer.name,
        customer_email: input.customer.email ?? null,
        customer_phone: input.customer.phone ?? null,
        vehicle: input.vehicle === null ? null : JSON.stringify(input.vehicle),
        notes: input.notes,
        external_ref: input.externalRef,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (input.productIds.length > 0) {
      await trx
        .insertInto('appointment_products')
        .values(input.productIds.map((productId) => ({ appointment_id: row.id, garage_id: row.garage_id, product_id: productId })))
        .execute();
    }
    return toAppointment(row, [...input.productIds]);
  },

  async findForUpdate(garageId, id) {
    if (!isUuid(id) || (garageId !== null && !isUuid(garageId))) return null;
    let query = trx.selectFrom('appointments').selectAll().where('id', '=', id);
    if (garageId !== null) query = query.where('garage_id', '=', garageId);
    const row = await query.forUpdate().executeTakeFirst();
    return row ? ((await withProducts(trx, [row]))[0] ?? null) : null;
  },

  async update(id, change) {
    const row = await trx
      .updateTable('appointments')
      .set({
        ...(change.status === undefined ? {} : { status: change.status }),
        ...(change.startsAt === undefined ? {} : { starts_at: change.startsAt }),
        ...(change.endsAt === undefined ? {} : { ends_at: change.endsAt }),
        ...(change.durationMinutes === undefined ? {} : { duration_minutes: change.durationMinutes }),
        ...(change.cancelledAt === undefined ? {} : { cancelled_at: change.cancelledAt }),
        ...(change.cancellationReason === undefined ? {} : { cancellation_reason: change.cancellationReason }),
        updated_at: nextUpdatedAt,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return (await withProducts(trx, [row]))[0] as Appointment;
  },
});
