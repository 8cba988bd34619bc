export interface AppointmentCustomer {
  name: string;
  email?: string | null;
  phone?: string | null;
}

export interface AppointmentVehicle {
  plate?: string | null;
  make?: string | null;
  model?: string | null;
  vin?: string | null;
  mileageKm?: number | null;
}

/** `booked` on creation; the garage confirms, completes or marks a no-show; either side may cancel. */
export const APPOINTMENT_STATUSES = ['booked', 'confirmed', 'cancelled', 'completed', 'no_show'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** The status every appointment is booked with. */
export const INITIAL_STATUS: AppointmentStatus = 'booked';

export interface Appointment {
  id: string;
  garageId: string;
  integrationId: string;
  startsAt: Date;
  endsAt: Date;
  durationMinutes: number;
  customer: AppointmentCustomer;
  vehicle: AppointmentVehicle | null;
  productIds: string[];
  notes: string | null;
  externalRef: string | null;
  status: AppointmentStatus;
  createdAt: Date;
  /** Moves with every change (a status, a new time), so that a sync by `updatedSince` learns of it. */
  updatedAt: Date;
  cancelledAt: Date | null;
  cancellationReason: string | null;
}

/** Only these may still change; cancelled, completed and no-show appointments are history. */
export const OPEN_STATUSES: readonly AppointmentStatus[] = ['booked', 'confirmed'];

/**
 * The appointments that hold a place in the garage's capacity: every status but a cancellation (a completed or missed
 * appointment still held its place). The database's reads of occupancy follow this list (docs/contributors/sql-rules.md).
 */
export const PLACE_HOLDING_STATUSES = ['booked', 'confirmed', 'completed', 'no_show'] as const satisfies readonly AppointmentStatus[];

export const holdsPlace = (appointment: Pick<Appointment, 'status'>): boolean =>
  (PLACE_HOLDING_STATUSES as readonly AppointmentStatus[]).includes(appointment.status);

/** A customer with every contact field present, null when absent: how it is stored and shown. */
export const completeCustomer = (customer: AppointmentCustomer): Required<AppointmentCustomer> => ({
  name: customer.name,
  email: customer.email ?? null,
  phone: customer.phone ?? null,
});

/** A vehicle with every field present, null when absent; no vehicle stays null. */
export const completeVehicle = (vehicle: AppointmentVehicle | null | undefined): Required<AppointmentVehicle> | null =>
  vehicle
    ? {
        plate: vehicle.plate ?? null,
        make: vehicle.make ?? null,
        model: vehicle.model ?? null,
        vin: vehicle.vin ?? null,
        mileageKm: vehicle.mileageKm ?? null,
      }
    : null;
