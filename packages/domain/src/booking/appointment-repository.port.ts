import type { Appointment } from '../entities/appointment.js';
import type { BookedInterval } from './occupancy.js';

export type NewAppointment = Omit<Appointment, 'id' | 'createdAt'>;

export interface AppointmentReader {
  /**
   * `[startsAt, endsAt)` of every appointment of the garage overlapping `[from, to)`, i.e. with
   * `startsAt < to and endsAt > from` (touching intervals do not overlap), whoever booked it, in any order.
   */
  listOverlapping(garageId: string, from: Date, to: Date): Promise<BookedInterval[]>;
}

/** Reads and writes; only a unit of work hands it out, so a booking always runs under its day's lock. */
export interface AppointmentRepository extends AppointmentReader {
  /**
   * Stores the appointment with its products and returns it with a new UUID `id` and `createdAt`.
   * Throws `DuplicateError` when the integration already has an appointment with this non-null `externalRef`,
   * `InvalidReferenceError` when a product id is not a product of the garage (the database's foreign key backs the
   * domain's earlier check against a product deleted meanwhile). `productIds` holds no duplicates.
   */
  create(input: NewAppointment): Promise<Appointment>;
}
