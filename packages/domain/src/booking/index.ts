/** Workshop appointments: booking under the capacity rule, and the availability that the same rule computes. */
export {
  APPOINTMENT_STATUSES,
  OPEN_STATUSES,
  type Appointment,
  type AppointmentCustomer,
  type AppointmentStatus,
  type AppointmentVehicle,
} from './appointment.js';
export type {
  AppointmentChange,
  AppointmentListQuery,
  AppointmentReader,
  AppointmentRepository,
  NewAppointment,
} from './appointment-repository.port.js';
export { compareBookingLockKeys, type BookingLockKey, type BookingLocks } from './booking-lock.port.js';
export type { BookedInterval } from './occupancy.js';
export { MAX_DURATION_MINUTES } from './slot-model.js';
export {
  APPOINTMENT_FIELD_LIMITS,
  MAX_PRODUCTS_PER_APPOINTMENT,
  makeBookAppointment,
  type BookAppointmentCommand,
} from './book-appointment.js';
export {
  MAX_AVAILABILITY_DAYS,
  makeListAvailability,
  type AvailabilityQuery,
  type AvailableStart,
} from './list-availability.js';
export { appointmentEvent, appointmentView, type AppointmentEventType, type AppointmentView } from './appointment-view.js';
export { makeGetAppointment } from './get-appointment.js';
export { makeListAppointments, makeListGarageAppointments, type ListAppointmentsQuery } from './list-appointments.js';
export { CANCELLATION_REASON_MAX, makeCancelAppointment, type CancelAppointmentCommand } from './cancel-appointment.js';
export { makeRescheduleAppointment, type RescheduleAppointmentCommand } from './reschedule-appointment.js';
export {
  GARAGE_STATUSES,
  makeSetAppointmentStatus,
  type GarageStatus,
  type SetAppointmentStatusCommand,
} from './set-appointment-status.js';
