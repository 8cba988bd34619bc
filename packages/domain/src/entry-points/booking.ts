/** Workshop appointments: booking under the capacity rule, and the availability that the same rule computes. */
export type { Appointment, AppointmentCustomer, AppointmentVehicle } from '../entities/appointment.js';
export type { AppointmentReader, AppointmentRepository, NewAppointment } from '../booking/appointment-repository.port.js';
export type { BookingLockKey, BookingLocks } from '../booking/booking-lock.port.js';
export type { BookedInterval } from '../booking/occupancy.js';
export { MAX_DURATION_MINUTES } from '../booking/slot-model.js';
export {
  APPOINTMENT_FIELD_LIMITS,
  MAX_PRODUCTS_PER_APPOINTMENT,
  makeBookAppointment,
  type BookAppointmentCommand,
} from '../booking/book-appointment.js';
export {
  MAX_AVAILABILITY_DAYS,
  makeListAvailability,
  type AvailabilityQuery,
  type AvailableStart,
} from '../booking/list-availability.js';
export { appointmentCreatedEvent } from '../booking/appointment-created.js';
