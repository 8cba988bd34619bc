import { OPEN_STATUSES, type AppointmentStatus } from './appointment.js';
import { AppointmentNotChangeableError, NotFoundError, ValidationError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import type { Work } from '../kernel/unit-of-work.port.js';
import { transactional, type TransactionalUseCase } from '../kernel/transactional-use-case.js';
import { isUuid } from '../kernel/ids.js';
import { Checker } from '../kernel/validation.js';
import { lockAppointmentDays } from './appointment-days.js';
import { appointmentEvent, appointmentView, type AppointmentView } from './appointment-view.js';
import { CANCELLATION_REASON_MAX } from './cancel-appointment.js';
import type { LocalTime } from './local-time.js';
import { makeDayModel } from './slot-model.js';
import type { AppointmentWriteDeps } from './appointment-write-deps.js';

/** What the garage may set: everything but `booked`, which only a booking gives. */
export const GARAGE_STATUSES = ['confirmed', 'completed', 'no_show', 'cancelled'] as const satisfies readonly AppointmentStatus[];
export type GarageStatus = (typeof GARAGE_STATUSES)[number];

export interface SetAppointmentStatusCommand {
  appointmentId: string;
  /** Only an appointment of this garage (the sandbox's test helper); absent, any garage's (the operator's CLI). */
  garageId?: string;
  status: string;
  reason?: string | null;
}

/**
 * The garage's side of the lifecycle (admin CLI, docs/reference/contract.md §4.6): an open appointment becomes confirmed, completed,
 * a no-show or cancelled, whenever it lies (a no-show is recorded after the start). Setting the status it already has
 * changes nothing; a closed appointment cannot change (409). The event, `appointment.cancelled` for a cancellation and
 * `appointment.updated` otherwise, commits with the change, and so does the move of its day's version (the booking
 * lock taken here): a cancellation frees the place in availability at once.
 */
export const makeSetAppointmentStatus = ({ uow, clock, localTime }: AppointmentWriteDeps): TransactionalUseCase<SetAppointmentStatusCommand, StatusChange> => transactional(uow, setAppointmentStatusWork(clock, localTime));

export interface StatusChange {
  id: string;
  status: AppointmentStatus;
  appointment: AppointmentView;
}

const setAppointmentStatusWork =
  (clock: Clock, localTime: LocalTime) =>
  (cmd: SetAppointmentStatusCommand): Work<StatusChange> => {
    const check = new Checker();
    if (!(GARAGE_STATUSES as readonly string[]).includes(cmd.status)) check.fail('/status', `must be one of ${GARAGE_STATUSES.join(', ')}`);
    check.string('/reason', cmd.reason, { optional: true, min: 0, max: CANCELLATION_REASON_MAX });
    if (cmd.reason != null && cmd.status !== 'cancelled') check.fail('/reason', 'is only for a cancellation');
    check.throwIfAny('Invalid status change');
    const status = cmd.status as GarageStatus;
    if (!isUuid(cmd.appointmentId)) throw new ValidationError('Invalid appointment id', [{ path: '/id', message: 'must be a UUID' }]);
    return async (tx) => {
      const current = await tx.appointments.findForUpdate(cmd.garageId ?? null, cmd.appointmentId);
      if (!current) throw new NotFoundError(`Appointment ${cmd.appointmentId} not found`);
      const garage = await tx.garages.findById(current.garageId);
      if (!garage) throw new NotFoundError('Garage not found');
      if (current.status === status) return { id: current.id, status, appointment: appointmentView(current, garage.booking.timezone, localTime) };
      if (!OPEN_STATUSES.includes(current.status)) throw new AppointmentNotChangeableError(`The appointment is ${current.status}`);
      await lockAppointmentDays(tx.bookingLocks, current.garageId, makeDayModel(garage.booking, localTime), current);
      const now = clock.now();
      const changed = await tx.appointments.update(
        current.id,
        status === 'cancelled' ? { status, cancelledAt: now, cancellationReason: cmd.reason ?? null } : { status },
      );
      const view = appointmentView(changed, garage.booking.timezone, localTime);
      await tx.outbox.enqueue(appointmentEvent(status === 'cancelled' ? 'appointment.cancelled' : 'appointment.updated', changed.garageId, view));
      return { id: changed.id, status: changed.status, appointment: view };
    };
  };
