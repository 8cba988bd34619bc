import { ValidationError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import { transactional, type TransactionalUseCase } from '../kernel/transactional-use-case.js';
import type { Work } from '../kernel/unit-of-work.port.js';
import { Checker } from '../kernel/validation.js';
import { appointmentDays } from './appointment-days.js';
import { lockOrder, type BookingLockKey } from './booking-lock.port.js';
import { appointmentEvent, appointmentView, type AppointmentView } from './appointment-view.js';
import { lockChangeableAppointment } from './changeable-appointment.js';
import { ensureRoomUnderLock } from './capacity-rule.js';
import type { LocalTime } from './local-time.js';
import { makeSlotModel } from './slot-model.js';
import type { AppointmentWriteDeps } from './appointment-write-deps.js';

export interface RescheduleAppointmentCommand {
  garageId: string;
  appointmentId: string;
  /** RFC 3339 with an offset. */
  startsAt: string;
  /** Defaults to the appointment's current duration. */
  durationMinutes?: number;
}

/**
 * Moves an open appointment to a new time under every booking rule of §4.1, its own current place excepted. One
 * transaction: the appointment's row lock (so changes of one appointment queue), then the booking locks of its old
 * and new local dates in one fixed order (so two reschedules crossing the same days cannot deadlock; both days'
 * versions move with the commit), the capacity check, the update and the `appointment.rescheduled` event. Any error
 * leaves the old time.
 */
export const makeRescheduleAppointment = ({ uow, clock, localTime }: AppointmentWriteDeps): TransactionalUseCase<RescheduleAppointmentCommand, AppointmentView> => transactional(uow, rescheduleAppointmentWork(clock, localTime));

const rescheduleAppointmentWork =
  (clock: Clock, localTime: LocalTime) =>
  (cmd: RescheduleAppointmentCommand): Work<AppointmentView> =>
  async (tx) => {
    const now = clock.now();
    const { appointment, garage } = await lockChangeableAppointment(tx, cmd.garageId, cmd.appointmentId, now);
    const settings = garage.booking;
    const model = makeSlotModel(settings, now, localTime);
    const check = new Checker();
    const candidate = model.parse({ startsAt: cmd.startsAt, durationMinutes: cmd.durationMinutes ?? appointment.durationMinutes }, check);
    if (candidate === null) throw new ValidationError('Invalid reschedule', check.details);
    const { localDate } = candidate;
    const interval = model.resolve(candidate, await tx.garages.listClosures(cmd.garageId, localDate, localDate));

    // The locks of the old dates and the new one, in their one order; the read comes with the last one.
    const locks = lockOrder([...appointmentDays(cmd.garageId, model, appointment), { garageId: cmd.garageId, localDate: interval.localDate }]);
    const lastLock = locks.pop() as BookingLockKey;
    for (const key of locks) await tx.bookingLocks.acquire(key);

    await ensureRoomUnderLock(tx.bookingLocks, lastLock, settings, interval, appointment.id);
    const moved = await tx.appointments.update(appointment.id, {
      startsAt: interval.start,
      endsAt: interval.end,
      durationMinutes: interval.durationMinutes,
    });
    const view = appointmentView(moved, settings.timezone, localTime);
    await tx.outbox.enqueue(appointmentEvent('appointment.rescheduled', moved.garageId, view));
    return view;
  };
