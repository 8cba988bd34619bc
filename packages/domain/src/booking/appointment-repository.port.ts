import type { Appointment, AppointmentStatus } from './appointment.js';
import type { KeysetQuery } from '../kernel/pagination.js';
import type { BookedInterval } from './occupancy.js';

export type NewAppointment = Omit<Appointment, 'id' | 'createdAt' | 'updatedAt' | 'status' | 'cancelledAt' | 'cancellationReason'>;

export interface AppointmentListQuery extends KeysetQuery {
  /** `startsAt` in `[startsFrom, startsBefore)` when given. */
  startsFrom: Date | null;
  startsBefore: Date | null;
  status: AppointmentStatus | null;
  /** Only appointments of this integration with this `externalRef`. */
  externalRef: { integrationId: string; value: string } | null;
}

/** What an appointment may change to; `updatedAt` moves with any change. */
export type AppointmentChange = Partial<
  Pick<Appointment, 'status' | 'startsAt' | 'endsAt' | 'durationMinutes' | 'cancelledAt' | 'cancellationReason'>
>;

export interface AppointmentReader {
  /**
   * `[startsAt, endsAt)` of every appointment of the garage that holds a place (any status but `cancelled`) and
   * overlaps `[from, to)`, i.e. with `startsAt < to and endsAt > from` (touching intervals do not overlap), whoever
   * booked it, in any order; without the appointment `excludeId` (a reschedule does not compete with itself).
   */
  listOverlapping(garageId: string, from: Date, to: Date, excludeId?: string): Promise<BookedInterval[]>;
  /** The appointment of the garage, or null (an id of another garage is unknown here). */
  findById(garageId: string, id: string): Promise<Appointment | null>;
  /** Appointments of the garage, every status, ordered by `(updatedAt, id)` ascending, strictly after `after`. */
  list(query: AppointmentListQuery): Promise<Appointment[]>;
}

/** Reads and writes; only a unit of work hands it out, so a booking always runs under its day's lock. */
export interface AppointmentRepository extends AppointmentReader {
  /**
   * Stores the appointment (`booked`) with its products and returns it with a new UUID `id`, `createdAt` and
   * `updatedAt`. Throws `DuplicateError` when the integration already has an appointment with this non-null
   * `externalRef`, `InvalidReferenceError` when a product id is not a product of the garage (the database's foreign key
   * backs the domain's earlier check against a product deleted meanwhile). `productIds` holds no duplicates.
   */
  create(input: NewAppointment): Promise<Appointment>;
  /**
   * Like `findById` (any garage's when `garageId` is null, for the garage's own tools), and locks the appointment until
   * the transaction ends: changes of one appointment are serialised.
   */
  findForUpdate(garageId: string | null, id: string): Promise<Appointment | null>;
  /** Applies `change`, moves `updatedAt`, and returns the appointment as stored. */
  update(id: string, change: AppointmentChange): Promise<Appointment>;
}
