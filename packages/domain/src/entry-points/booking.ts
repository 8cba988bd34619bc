/** Workshop appointments: booking under the capacity rule, and the availability that the same rule computes. */
export {
  APPOINTMENT_STATUSES,
  OPEN_STATUSES,
  type Appointment,
  type AppointmentCustomer,
  type AppointmentStatus,
  type AppointmentVehicle,
} from '../entities/appointment.js';
export type {
  AppointmentChange,
  AppointmentListQuery,
  AppointmentReader,
  AppointmentRepository,
  NewAppointment,
} from '../booking/appointment-repository.port.js';
export { compareBookingLockKeys, type BookingLockKey, type BookingLocks } from '../booking/booking-lock.port.js';
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
export { appointmentEvent, appointmentView, type AppointmentEventType, type AppointmentView } from '../booking/appointment-view.js';
export { makeGetAppointment } from '../booking/get-appointment.js';
export { makeListAppointments, makeListGarageAppointments, type ListAppointmentsQuery } from '../booking/list-appointments.js';
export { CANCELLATION_REASON_MAX, makeCancelAppointment, type CancelAppointmentCommand } from '../booking/cancel-appointment.js';
export { makeRescheduleAppointment, type RescheduleAppointmentCommand } from '../booking/reschedule-appointment.js';
export {
  GARAGE_STATUSES,
  makeSetAppointmentStatus,
  type GarageStatus,
  type SetAppointmentStatusCommand,
} from '../booking/set-appointment-status.js';
