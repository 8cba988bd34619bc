import { OPEN_STATUSES, type Appointment } from './appointment.js';
import type { Garage } from '../garages/garage.js';
import { AppointmentNotChangeableError, NotFoundError } from '../kernel/errors.js';
import type { Transaction } from '../kernel/unit-of-work.port.js';

/**
 * The appointment a connector asks to change, locked for the rest of the transaction, with its garage. A connector may
 * change an appointment that is still open (booked or confirmed) and has not started yet (docs/reference/contract.md §4.6).
 */
export const lockChangeableAppointment = async (
  tx: Transaction,
  garageId: string,
  appointmentId: string,
  now: Date,
): Promise<{ appointment: Appointment; garage: Garage }> => {
  const appointment = await tx.appointments.findForUpdate(garageId, appointmentId);
  if (!appointment) throw new NotFoundError('Appointment not found');
  if (!OPEN_STATUSES.includes(appointment.status) || appointment.startsAt.getTime() <= now.getTime()) {
    throw new AppointmentNotChangeableError();
  }
  const garage = await tx.garages.findById(garageId);
  if (!garage) throw new NotFoundError('Garage not found');
  return { appointment, garage };
};
