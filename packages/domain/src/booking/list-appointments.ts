import { APPOINTMENT_STATUSES, type Appointment, type AppointmentStatus } from './appointment.js';
import type { Garage } from '../garages/garage.js';
import { NotFoundError } from '../kernel/errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import type { KeysetPosition } from '../kernel/pagination.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { Checker } from '../kernel/validation.js';
import { fetchPage, type Page, type PageRequest } from '../kernel/page.js';
import type { AppointmentReader } from './appointment-repository.port.js';
import { appointmentView, type AppointmentView } from './appointment-view.js';
import { checkLocalDate, type LocalTime } from './local-time.js';
import { makeDayModel } from './slot-model.js';

export interface ListAppointmentsQuery extends PageRequest {
  garageId: string;
  /** The calling integration: `externalRef` matches its own references only. */
  integrationId: string | null;
  updatedSince: Date | null;
  /** Local dates `YYYY-MM-DD` of `startsAt`, inclusive. */
  from: string | null;
  to: string | null;
  status: AppointmentStatus | null;
  externalRef: string | null;
}

const checkQuery = (q: Pick<ListAppointmentsQuery, 'from' | 'to' | 'status'>): void => {
  const check = new Checker();
  if (q.from !== null) checkLocalDate(q.from, check, '/from');
  if (q.to !== null) checkLocalDate(q.to, check, '/to');
  if (q.from !== null && q.to !== null && q.from > q.to) check.fail('/to', 'must not be before from');
  if (q.status !== null && !APPOINTMENT_STATUSES.includes(q.status)) check.fail('/status', `must be one of ${APPOINTMENT_STATUSES.join(', ')}`);
  check.throwIfAny('Invalid appointment query');
};

/** The `startsAt` range of the local dates `from`..`to`, either end open. */
const startsRange = (garage: Garage, localTime: LocalTime, from: string | null, to: string | null) => {
  const model = makeDayModel(garage.booking, localTime);
  return {
    startsFrom: from === null ? null : model.span(from, from).from,
    startsBefore: to === null ? null : model.span(to, to).to,
  };
};

/**
 * The garage's appointments, every status (a sync learns of cancellations), ordered by `(updatedAt, id)` like every
 * list (docs/reference/contract.md §4.2, §4.6).
 */
export const makeListAppointments =
  ({
    garages,
    appointments,
    cursors,
    localTime,
  }: {
    garages: Pick<GarageRepository, 'findById'>;
    appointments: Pick<AppointmentReader, 'list'>;
    cursors: CursorCodec;
    localTime: LocalTime;
  }) =>
  async (q: ListAppointmentsQuery): Promise<Page<AppointmentView>> => {
    checkQuery(q);
    const garage = await garages.findById(q.garageId);
    if (!garage) throw new NotFoundError('Garage not found');
    const range = startsRange(garage, localTime, q.from, q.to);
    const externalRef = q.externalRef === null || q.integrationId === null ? null : { integrationId: q.integrationId, value: q.externalRef };
    const page = await fetchPage<Appointment>(
      cursors,
      ['appointments', q.garageId, q.updatedSince?.toISOString(), q.from, q.to, q.status, externalRef?.integrationId, q.externalRef].join('|'),
      q,
      (a) => ({ sortValue: a.updatedAt, id: a.id }),
      (after, limit) =>
        appointments.list({
          garageId: q.garageId,
          limit,
          after,
          updatedSince: q.updatedSince,
          ...range,
          status: q.status,
          externalRef,
        }),
    );
    return { data: page.data.map((a) => appointmentView(a, garage.booking.timezone, localTime)), nextCursor: page.nextCursor };
  };

/** The garage's own view (admin CLI): every matching appointment at once, in the same order, without cursors. */
export const makeListGarageAppointments =
  ({
    garages,
    appointments,
    localTime,
  }: {
    garages: Pick<GarageRepository, 'findBySlug'>;
    appointments: Pick<AppointmentReader, 'list'>;
    localTime: LocalTime;
  }) =>
  async (q: { garageSlug: string; from: string | null; to: string | null; status: AppointmentStatus | null }): Promise<AppointmentView[]> => {
    checkQuery(q);
    const garage = await garages.findBySlug(q.garageSlug);
    if (!garage) throw new NotFoundError(`Garage ${q.garageSlug} not found`);
    const range = startsRange(garage, localTime, q.from, q.to);
    const all: AppointmentView[] = [];
    for (let after: KeysetPosition | null = null; ; ) {
      const rows = await appointments.list({ garageId: garage.id, limit: 500, after, updatedSince: null, ...range, status: q.status, externalRef: null });
      all.push(...rows.map((a) => appointmentView(a, garage.booking.timezone, localTime)));
      const last = rows[rows.length - 1];
      if (rows.length < 500 || !last) return all;
      after = { sortValue: last.updatedAt, id: last.id };
    }
  };
