import type { Fuel, Vehicle, VehicleImportRow } from './vehicle.js';
import type { KeysetQuery } from '../kernel/pagination.js';

export interface VehicleListQuery extends KeysetQuery {
  /** Case-insensitive exact make. */
  make: string | null;
  fuel: Fuel | null;
}

export interface VehicleReader {
  /** Vehicles that are not sold, ordered by `(publishedAt, id)` descending, strictly after `after`. */
  list(query: VehicleListQuery): Promise<Vehicle[]>;
  /** A vehicle that is not sold; restricted to `garageId` when given. */
  findPublicById(id: string, garageId: string | null): Promise<(Vehicle & { garageId: string }) | null>;
}

/** Reads and writes; only a unit of work hands it out, because an import spans statements. */
export interface VehicleRepository extends VehicleReader {
  upsertMany(garageId: string, rows: VehicleImportRow[], defaultCurrency: string): Promise<Record<string, string>>;
}
