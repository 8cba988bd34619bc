import type { Clock } from '../kernel/clock.port.js';
import { transactional, type TransactionalUseCase } from '../kernel/transactional-use-case.js';
import type { Work } from '../kernel/unit-of-work.port.js';
import { Checker } from '../kernel/validation.js';
import { lockAppointmentDays } from './appointment-days.js';
import { appointmentEvent, appointmentView, type AppointmentView } from './appointment-view.js';
import { lockChangeableAppointment } from './changeable-appointment.js';
import type { LocalTime } from './local-time.js';
import { makeDayModel } from './slot-model.js';
import type { AppointmentWriteDeps } from './appointment-write-deps.js';

export const CANCELLATION_REASON_MAX = 500;

export interface CancelAppointmentCommand {
  garageId: string;
  appointmentId: string;
  reason?: string | null;
}

/**
 * Cancels an open appointment that has not started (docs/reference/contract.md §4.6). Its place is free as soon as the transaction
 * commits: occupancy counts every appointment but cancelled ones, and the day's booking lock, taken here, moves the
 * day's version with the commit, so availability computes the day again. The `appointment.cancelled` event commits with it.
 */
export const makeCancelAppointment = ({ uow, clock, localTime }: AppointmentWriteDeps): TransactionalUseCase<CancelAppointmentCommand, AppointmentView> => transactional(uow, cancelAppointmentWork(clock, localTime));

const cancelAppointmentWork =
  (clock: Clock, localTime: LocalTime) =>
  (cmd: CancelAppointmentCommand): Work<AppointmentView> => {
    const check = new Checker();
    check.string('/reason', cmd.reason, { optional: true, min: 0, max: CANCELLATION_REASON_MAX });
    check.throwIfAny('Invalid cancellation');
    return async (tx) => {
      const now = clock.now();
      const { appointment, garage } = await lockChangeableAppointment(tx, cmd.garageId, cmd.appointmentId, now);
      await lockAppointmentDays(tx.bookingLocks, cmd.garageId, makeDayModel(garage.booking, localTime), appointment);
      const cancelled = await tx.appointments.update(cmd.appointmentId, {
        status: 'cancelled',
        cancelledAt: now,
        cancellationReason: cmd.reason ?? null,
      });
      const view = appointmentView(cancelled, garage.booking.timezone, localTime);
      await tx.outbox.enqueue(appointmentEvent('appointment.cancelled', cancelled.garageId, view));
      return view;
    };
  };
