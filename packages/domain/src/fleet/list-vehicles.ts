import type { Fuel } from './vehicle.js';
import type { VehicleListQuery } from './vehicle-repository.port.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { fetchPage, type Listing, type Page, type PageRequest } from '../kernel/page.js';
import type { KeysetPosition } from '../kernel/pagination.js';

export interface ListVehiclesQuery extends PageRequest {
  garageId: string;
  updatedSince: Date | null;
  make: string | null;
  fuel: Fuel | null;
}

/**
 * Newest `publishedAt` first; sold vehicles never appear. `Vehicle`s from a `VehicleReader` (with `vehiclePosition`),
 * or an adapter's representation of the same rows.
 */
export const makeListVehicles =
  <T>({ vehicles, cursors, positionOf }: { vehicles: Listing<VehicleListQuery, T>; cursors: CursorCodec; positionOf: (item: T) => KeysetPosition }) =>
  (q: ListVehiclesQuery): Promise<Page<T>> =>
    fetchPage(
      cursors,
      `vehicles|${q.garageId}|${q.updatedSince?.toISOString() ?? ''}|${q.make?.toLowerCase() ?? ''}|${q.fuel ?? ''}`,
      q,
      positionOf,
      (after, limit) =>
        vehicles.list({ garageId: q.garageId, limit, after, updatedSince: q.updatedSince, make: q.make, fuel: q.fuel }),
    );
