import { randomUUID } from 'node:crypto';
import {
  completeCustomer,
  completeVehicle,
  INITIAL_STATUS,
  type Appointment,
  type AppointmentCustomer,
  type AppointmentVehicle,
} from './appointment.js';
import { InvalidReferenceError, NotFoundError, SlotFullError, ValidationError } from '../kernel/errors.js';
import type { Clock } from '../kernel/clock.port.js';
import type { TransactionalUseCase } from '../kernel/transactional-use-case.js';
import type { Repositories, Work } from '../kernel/unit-of-work.port.js';
import { CONTACT_LIMITS, checkContact } from '../kernel/contact.js';
import { isUuid } from '../kernel/ids.js';
import { Checker, isRecord } from '../kernel/validation.js';
import { appointmentEvent, appointmentView, type AppointmentView } from './appointment-view.js';
import { localDatesAround, type LocalTime } from './local-time.js';
import { makeSlotModel } from './slot-model.js';
import type { AppointmentWriteDeps } from './appointment-write-deps.js';

export interface BookAppointmentCommand {
  principal: { integrationId: string; garageId: string };
  /** RFC 3339 with an offset. */
  startsAt: string;
  /** Defaults to the garage's `slotMinutes`. */
  durationMinutes?: number;
  customer: AppointmentCustomer;
  vehicle?: AppointmentVehicle | null;
  productIds?: string[];
  notes?: string | null;
  externalRef?: string | null;
}

export const MAX_PRODUCTS_PER_APPOINTMENT = 100;

/**
 * The limits of the fields below, exported so that a transport describing them (the HTTP schema, the OpenAPI
 * document) states the same numbers and patterns as the rule that enforces them.
 */
export const APPOINTMENT_FIELD_LIMITS = {
  customerName: CONTACT_LIMITS.name,
  email: CONTACT_LIMITS.email,
  phone: CONTACT_LIMITS.phone,
  plate: 32,
  make: 100,
  model: 100,
  vin: 17,
  mileageKm: 10_000_000,
  productIds: MAX_PRODUCTS_PER_APPOINTMENT,
  notes: 2000,
  externalRef: 100,
} as const;

const L = APPOINTMENT_FIELD_LIMITS;

const present = (value: unknown) => value !== undefined && value !== null;

/** The field rules of §4.1 other than time; the HTTP schema checks shapes too, but the domain is the authority. */
const checkFields = (cmd: BookAppointmentCommand, check: Checker): void => {
  const customer: unknown = cmd.customer;
  if (!isRecord(customer)) {
    check.fail('/customer', 'is required');
  } else {
    checkContact(check, customer, { at: '/customer', missingAt: '/customer' });
  }
  const vehicle: unknown = cmd.vehicle;
  if (present(vehicle)) {
    if (!isRecord(vehicle)) {
      check.fail('/vehicle', 'must be an object');
    } else {
      check.string('/vehicle/plate', vehicle.plate, { optional: true, max: L.plate });
      check.string('/vehicle/make', vehicle.make, { optional: true, max: L.make });
      check.string('/vehicle/model', vehicle.model, { optional: true, max: L.model });
      check.string('/vehicle/vin', vehicle.vin, { optional: true, max: L.vin });
      check.integer('/vehicle/mileageKm', vehicle.mileageKm, { optional: true, max: L.mileageKm });
    }
  }
  const productIds: unknown = cmd.productIds;
  if (present(productIds)) {
    if (!Array.isArray(productIds) || productIds.length > MAX_PRODUCTS_PER_APPOINTMENT) {
      check.fail('/productIds', `must be an array of at most ${MAX_PRODUCTS_PER_APPOINTMENT} product ids`);
    } else {
      productIds.forEach((id: unknown, i) => {
        if (typeof id !== 'string' || !isUuid(id)) check.fail(`/productIds/${i}`, 'must be a UUID');
      });
    }
  }
  check.string('/notes', cmd.notes, { optional: true, min: 0, max: L.notes });
  check.string('/externalRef', cmd.externalRef, { optional: true, max: L.externalRef });
};

/** What a booking reads and writes: the garage and its closures, the products named, and the one write. */
export type BookingPorts = Pick<Repositories, 'garages' | 'products' | 'bookings'>;

/**
 * Books an appointment (docs/reference/contract.md §4.1). Order of the answers: 400 `VALIDATION_FAILED` (every field problem at
 * once), 400 `INVALID_REFERENCE`, 409 `DATES_UNAVAILABLE`, then under the booking lock 409 `SLOT_FULL` and 409
 * `DUPLICATE`. The reads come first; the day's lock, the capacity check, the appointment and its
 * `appointment.created` event are then one atomic write (`BookingWriter`), so a booking called alone needs no
 * transaction of its own: `repos` serve it. Under an Idempotency-Key, its `work` runs the same steps in the
 * transaction that commits the key's record with them.
 */
export const makeBookAppointment = ({
  repos,
  clock,
  localTime,
}: Omit<AppointmentWriteDeps, 'uow'> & { repos: BookingPorts }): TransactionalUseCase<BookAppointmentCommand, AppointmentView> => {
  const book = bookAppointment(clock, localTime);
  return Object.assign((cmd: BookAppointmentCommand) => book(repos, cmd), {
    work: (cmd: BookAppointmentCommand): Work<AppointmentView> => (tx) => book(tx, cmd),
  });
};

const bookAppointment =
  (clock: Clock, localTime: LocalTime) =>
  async (ports: BookingPorts, cmd: BookAppointmentCommand): Promise<AppointmentView> => {
    const { garageId, integrationId } = cmd.principal;
    // The garage and the closures of the days around the start, in one read: the start's local date needs the
    // garage's zone, and every read is a round trip.
    const around = localDatesAround(cmd.startsAt);
    const found = around
      ? await ports.garages.findWithClosures(garageId, around.from, around.to)
      : await ports.garages.findById(garageId).then((garage) => garage && { garage, closures: [], readAt: null });
    if (!found) throw new NotFoundError('Garage not found');
    const { garage } = found;
    const settings = garage.booking;
    const model = makeSlotModel(settings, clock.now(), localTime);

    const check = new Checker();
    const candidate = model.parse(cmd, check);
    checkFields(cmd, check);
    // A valid candidate always had a date to read around, and so the time of that read.
    if (candidate === null || found.readAt === null || check.details.length > 0) throw new ValidationError('Invalid appointment', check.details);

    const requested = cmd.productIds ?? [];
    const productIds = [...new Set(requested)];
    if (productIds.length > 0) {
      const existing = new Set(await ports.products.findExistingIds(garageId, productIds));
      const unknown = requested.flatMap((id, i) =>
        existing.has(id) ? [] : [{ path: `/productIds/${i}`, message: `${id} is not a product of this garage` }],
      );
      if (unknown.length > 0) throw new InvalidReferenceError('Unknown product', unknown);
    }

    const { localDate } = candidate;
    // Should the candidate's local date be outside the days read, its closures are read.
    const closures =
      around && around.from <= localDate && localDate <= around.to
        ? found.closures
        : await ports.garages.listClosures(garageId, localDate, localDate);
    const interval = model.resolve(candidate, closures);

    const appointment: Appointment = {
      id: randomUUID(),
      garageId,
      integrationId,
      startsAt: interval.start,
      endsAt: interval.end,
      durationMinutes: interval.durationMinutes,
      customer: completeCustomer(cmd.customer),
      vehicle: completeVehicle(cmd.vehicle),
      productIds,
      notes: cmd.notes ?? null,
      externalRef: cmd.externalRef ?? null,
      status: INITIAL_STATUS,
      createdAt: found.readAt,
      updatedAt: found.readAt,
      cancelledAt: null,
      cancellationReason: null,
    };
    const view = appointmentView(appointment, settings.timezone, localTime);
    const booked = await ports.bookings.bookIfRoom({
      lock: { garageId, localDate: interval.localDate },
      capacity: settings.capacity,
      slotMinutes: settings.slotMinutes,
      slots: interval.slots,
      appointment,
      event: appointmentEvent('appointment.created', garageId, view),
    });
    if (!booked) throw new SlotFullError();
    return view;
  };
