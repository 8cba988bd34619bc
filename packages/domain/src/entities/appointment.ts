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
  createdAt: Date;
}
