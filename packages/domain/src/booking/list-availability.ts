import { NotFoundError, ValidationError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import { Checker } from '../kernel/validation.js';
import type { AppointmentReader } from './appointment-repository.port.js';
import { remainingCapacity, slotOccupancy } from './occupancy.js';
import { addCalendarDays, checkBookingDuration, checkLocalDate, makeSlotModel } from './slot-model.js';

export const MAX_AVAILABILITY_DAYS = 31;

export interface AvailabilityQuery {
  garageId: string;
  /** Local dates `YYYY-MM-DD`, inclusive, at most 31 days. */
  from: string;
  to: string;
  /** Defaults to the garage's `slotMinutes`. */
  durationMinutes?: number;
}

export interface AvailableStart {
  /** RFC 3339 in the garage's offset at that instant. */
  startsAt: string;
  endsAt: string;
  /** How many more appointments of this duration fit at this start (≥ 1). */
  remaining: number;
}

/**
 * Every start at which a booking of `durationMinutes` would succeed right now, in order (docs/reference/contract.md §4.1): the
 * candidates of the same slot model `makeBookAppointment` resolves against, kept when the same capacity rule
 * leaves room. Read without the booking lock: it is a snapshot, and booking re-checks under the lock.
 */
export const makeListAvailability =
  ({
    garages,
    appointments,
    clock,
  }: {
    garages: Pick<GarageRepository, 'findById' | 'listClosures'>;
    appointments: AppointmentReader;
    clock: Clock;
  }) =>
  async (q: AvailabilityQuery): Promise<AvailableStart[]> => {
    const garage = await garages.findById(q.garageId);
    if (!garage) throw new NotFoundError('Garage not found');
    const settings = garage.booking;

    const check = new Checker();
    const fromOk = checkLocalDate(q.from, check, '/from');
    const datesOk = checkLocalDate(q.to, check, '/to') && fromOk;
    if (datesOk && q.to < q.from) check.fail('/to', 'must not be before from');
    else if (datesOk && addCalendarDays(q.from, MAX_AVAILABILITY_DAYS - 1) < q.to) {
      check.fail('/to', `must be at most ${MAX_AVAILABILITY_DAYS} days from from, inclusive`);
    }
    const duration = checkBookingDuration(settings, q.durationMinutes, check);
    if (duration === null || check.details.length > 0) throw new ValidationError('Invalid availability query', check.details);

    const model = makeSlotModel(settings, clock.now());
    const span = model.span(q.from, q.to);
    const [closures, booked] = await Promise.all([
      garages.listClosures(q.garageId, q.from, q.to),
      appointments.listOverlapping(q.garageId, span.from, span.to),
    ]);
    const occupancy = slotOccupancy(settings.slotMinutes, booked);
    const result: AvailableStart[] = [];
    for (const interval of model.candidates(q.from, q.to, duration, closures)) {
      const remaining = remainingCapacity(settings.capacity, interval.slots, occupancy);
      if (remaining > 0) result.push({ startsAt: interval.startsAt, endsAt: interval.endsAt, remaining });
    }
    return result;
  };
