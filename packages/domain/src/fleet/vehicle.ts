import { field, type ItemOf, type ItemShape } from '../kernel/item-shape.js';
import type { KeysetPosition } from '../kernel/pagination.js';

export const FUELS = ['petrol', 'diesel', 'hybrid', 'electric', 'lpg', 'other'] as const;
export type Fuel = (typeof FUELS)[number];
export const GEARBOXES = ['manual', 'automatic'] as const;
export type Gearbox = (typeof GEARBOXES)[number];
/** `sold` vehicles are kept for the garage but never shown publicly. */
export const VEHICLE_STATUSES = ['available', 'reserved', 'sold'] as const;
export type VehicleStatus = (typeof VEHICLE_STATUSES)[number];

/**
 * A vehicle as the fleet lists it (docs/reference/contract.md §4.2): the one definition of its fields, their order
 * and their kinds (docs/contributors/adding-a-list-field.md).
 */
export const VEHICLE_ITEM = {
  id: field.uuid(),
  reference: field.text(),
  make: field.text(),
  model: field.text(),
  version: field.nullable(field.text()),
  year: field.integer(),
  mileageKm: field.integer(),
  fuel: field.oneOf(FUELS),
  gearbox: field.oneOf(GEARBOXES),
  priceCents: field.integer(),
  currency: field.text(),
  color: field.nullable(field.text()),
  description: field.nullable(field.text()),
  photos: field.texts(),
  status: field.oneOf(VEHICLE_STATUSES),
  publishedAt: field.time(),
  updatedAt: field.time(),
} satisfies ItemShape;

export type Vehicle = ItemOf<typeof VEHICLE_ITEM>;

/** Where a vehicle stands in the fleet's order, `(publishedAt, id)` descending: what a page's cursor keeps. */
export const vehiclePosition = (vehicle: Pick<Vehicle, 'publishedAt' | 'id'>): KeysetPosition => ({ sortValue: vehicle.publishedAt, id: vehicle.id });

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
