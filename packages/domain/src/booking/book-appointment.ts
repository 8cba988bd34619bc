import type { Appointment, AppointmentCustomer, AppointmentVehicle } from '../entities/appointment.js';
import type { Garage } from '../entities/garage.js';
import { InvalidReferenceError, NotFoundError, SlotFullError, ValidationError } from '../errors.js';
import type { ProductRepository } from '../ports/catalog-repository.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { GarageRepository } from '../ports/garage-repository.port.js';
import { Checker, isRecord } from '../services/validate.js';
import type { BookingTransaction, BookingTx } from './booking-transaction.port.js';
import { remainingCapacity, slotOccupancy } from './occupancy.js';
import { makeSlotModel } from './slot-model.js';

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
  customerName: 120,
  email: { max: 254, pattern: /^[^\s@]+@[^\s@]+$/ },
  phone: { max: 32, pattern: /^\+?[0-9][0-9 ().-]*$/ },
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
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const present = (value: unknown) => value !== undefined && value !== null;

/** The field rules of §4.1 other than time; the HTTP schema checks shapes too, but the domain is the authority. */
const checkFields = (cmd: BookAppointmentCommand, check: Checker): void => {
  const customer: unknown = cmd.customer;
  if (!isRecord(customer)) {
    check.fail('/customer', 'is required');
  } else {
    if (typeof customer.name === 'string' && customer.name.trim() === '') check.fail('/customer/name', 'must not be blank');
    else check.string('/customer/name', customer.name, { max: L.customerName });
    check.string('/customer/email', customer.email, { optional: true, max: L.email.max });
    if (typeof customer.email === 'string' && !L.email.pattern.test(customer.email)) check.fail('/customer/email', 'must be an email address');
    check.string('/customer/phone', customer.phone, { optional: true, max: L.phone.max });
    if (typeof customer.phone === 'string' && !L.phone.pattern.test(customer.phone)) check.fail('/customer/phone', 'must be a phone number');
    if (!present(customer.email) && !present(customer.phone)) check.fail('/customer', 'must have an email or a phone');
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
        if (typeof id !== 'string' || !UUID.test(id)) check.fail(`/productIds/${i}`, 'must be a UUID');
      });
    }
  }
  check.string('/notes', cmd.notes, { optional: true, min: 0, max: L.notes });
  check.string('/externalRef', cmd.externalRef, { optional: true, max: L.externalRef });
};

/**
 * Books an appointment (CONTRACT.md §4.1). Order of the answers: 400 `VALIDATION_FAILED` (every field problem at
 * once), 400 `INVALID_REFERENCE`, 409 `DATES_UNAVAILABLE`, then under the booking lock 409 `SLOT_FULL` and 409
 * `DUPLICATE` (from the repository). `onBooked` runs inside the same transaction, after the insert: the place for
 * the `appointment.created` outbox event, which commits or rolls back with the appointment. It gets the garage as
 * read for this booking, so that the event can state local times without another query under the lock.
 */
export const makeBookAppointment =
  <Tx extends BookingTransaction>({
    garages,
    products,
    bookingTx,
    clock,
    onBooked,
  }: {
    garages: Pick<GarageRepository, 'findById' | 'listClosures'>;
    products: Pick<ProductRepository, 'findExistingIds'>;
    bookingTx: BookingTx<Tx>;
    clock: Clock;
    onBooked?: (tx: Tx, appointment: Appointment, garage: Garage) => Promise<void>;
  }) =>
  async (cmd: BookAppointmentCommand): Promise<Appointment> => {
    const { garageId, integrationId } = cmd.principal;
    const garage = await garages.findById(garageId);
    if (!garage) throw new NotFoundError('Garage not found');
    const settings = garage.booking;
    const model = makeSlotModel(settings, clock.now());

    const check = new Checker();
    const candidate = model.parse(cmd, check);
    checkFields(cmd, check);
    if (candidate === null || check.details.length > 0) throw new ValidationError('Invalid appointment', check.details);

    const requested = cmd.productIds ?? [];
    const productIds = [...new Set(requested)];
    if (productIds.length > 0) {
      const existing = new Set(await products.findExistingIds(garageId, productIds));
      const unknown = requested.flatMap((id, i) =>
        existing.has(id) ? [] : [{ path: `/productIds/${i}`, message: `${id} is not a product of this garage` }],
      );
      if (unknown.length > 0) throw new InvalidReferenceError('Unknown product', unknown);
    }

    const localDate = model.localDateOf(candidate.start);
    const interval = model.resolve(candidate, await garages.listClosures(garageId, localDate, localDate));

    return bookingTx.run({ garageId, localDate: interval.localDate }, async (tx) => {
      const last = interval.slots[interval.slots.length - 1] ?? interval.start;
      const booked = await tx.appointments.listOverlapping(
        garageId,
        interval.start,
        new Date(last.getTime() + settings.slotMinutes * 60_000),
      );
      if (remainingCapacity(settings.capacity, interval.slots, slotOccupancy(settings.slotMinutes, booked)) <= 0) {
        throw new SlotFullError();
      }
      const appointment = await tx.appointments.create({
        garageId,
        integrationId,
        startsAt: interval.start,
        endsAt: interval.end,
        durationMinutes: interval.durationMinutes,
        customer: {
          name: cmd.customer.name,
          email: cmd.customer.email ?? null,
          phone: cmd.customer.phone ?? null,
        },
        vehicle: cmd.vehicle
          ? {
              plate: cmd.vehicle.plate ?? null,
              make: cmd.vehicle.make ?? null,
              model: cmd.vehicle.model ?? null,
              vin: cmd.vehicle.vin ?? null,
              mileageKm: cmd.vehicle.mileageKm ?? null,
            }
          : null,
        productIds,
        notes: cmd.notes ?? null,
        externalRef: cmd.externalRef ?? null,
      });
      await onBooked?.(tx, appointment, garage);
      return appointment;
    });
  };
