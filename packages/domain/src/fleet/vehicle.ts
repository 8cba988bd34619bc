export const FUELS = ['petrol', 'diesel', 'hybrid', 'electric', 'lpg', 'other'] as const;
export type Fuel = (typeof FUELS)[number];
export const GEARBOXES = ['manual', 'automatic'] as const;
export type Gearbox = (typeof GEARBOXES)[number];
/** `sold` vehicles are kept for the garage but never shown publicly. */
export const VEHICLE_STATUSES = ['available', 'reserved', 'sold'] as const;
export type VehicleStatus = (typeof VEHICLE_STATUSES)[number];

export interface Vehicle {
  id: string;
  reference: string;
  make: string;
  model: string;
  version: string | null;
  year: number;
  mileageKm: number;
  fuel: Fuel;
  gearbox: Gearbox;
  priceCents: number;
  currency: string;
  color: string | null;
  description: string | null;
  photos: string[];
  status: VehicleStatus;
  publishedAt: Date;
  updatedAt: Date;
}

export interface VehicleImportRow {
  reference: string;
  make: string;
  model: string;
  year: number;
  mileageKm: number;
  fuel: Fuel;
  gearbox: Gearbox;
  priceCents: number;
  version?: string | null;
  color?: string | null;
  description?: string | null;
  photos?: string[];
  status?: VehicleStatus;
}
