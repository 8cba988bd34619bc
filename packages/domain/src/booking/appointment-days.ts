import type { Appointment } from './appointment.js';
import type { BookingLockKey, BookingLocks } from './booking-lock.port.js';
import { lockOrder } from './booking-lock.port.js';
import type { DayModel } from './slot-model.js';

/**
 * The booking-lock keys of the local dates an appointment's `[startsAt, endsAt)` touches: the date of its start, and
 * the next one if it runs past midnight (a booking never does, being inside one opening interval; an appointment kept
 * through a change of the garage's zone or hours may). Availability counts a place on every date it overlaps.
 */
export const appointmentDays = (
  garageId: string,
  model: Pick<DayModel, 'localDateOf'>,
  appointment: Pick<Appointment, 'startsAt' | 'endsAt'>,
): BookingLockKey[] => {
  const first = model.localDateOf(appointment.startsAt);
  const last = model.localDateOf(new Date(appointment.endsAt.getTime() - 1));
  return first === last ? [{ garageId, localDate: first }] : [{ garageId, localDate: first }, { garageId, localDate: last }];
};

/**
 * Takes the booking locks of the dates the appointment touches, in their one order: a change of its status or time is
 * a change of those dates' places (`BookingLocks`' change count), and waits for the bookings of those dates in flight.
 */
export const lockAppointmentDays = async (
  locks: BookingLocks,
  garageId: string,
  model: Pick<DayModel, 'localDateOf'>,
  appointment: Pick<Appointment, 'startsAt' | 'endsAt'>,
): Promise<void> => {
  for (const key of lockOrder(appointmentDays(garageId, model, appointment))) await locks.acquire(key);
};
