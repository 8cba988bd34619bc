import { NotFoundError } from '../kernel/errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import type { AppointmentReader } from './appointment-repository.port.js';
import { appointmentView, type AppointmentView } from './appointment-view.js';
import type { LocalTime } from './local-time.js';

/** One appointment of the garage, whichever of its integrations booked it; 404 for any other id. */
export const makeGetAppointment =
  ({ garages, appointments, localTime }: { garages: Pick<GarageRepository, 'findById'>; appointments: AppointmentReader; localTime: LocalTime }) =>
  async (garageId: string, appointmentId: string): Promise<AppointmentView> => {
    const [garage, appointment] = await Promise.all([garages.findById(garageId), appointments.findById(garageId, appointmentId)]);
    if (!garage || !appointment) throw new NotFoundError('Appointment not found');
    return appointmentView(appointment, garage.booking.timezone, localTime);
  };
