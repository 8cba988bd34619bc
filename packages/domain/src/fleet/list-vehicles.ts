import type { Fuel, Vehicle } from './vehicle.js';
import type { VehicleRepository } from './vehicle-repository.port.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { fetchPage, type Page, type PageRequest } from '../kernel/page.js';

export interface ListVehiclesQuery extends PageRequest {
  garageId: string;
  updatedSince: Date | null;
  make: string | null;
  fuel: Fuel | null;
}

/** Newest `publishedAt` first; sold vehicles never appear. */
export const makeListVehicles =
  ({ vehicles, cursors }: { vehicles: Pick<VehicleRepository, 'list'>; cursors: CursorCodec }) =>
  (q: ListVehiclesQuery): Promise<Page<Vehicle>> =>
    fetchPage(
      cursors,
      `vehicles|${q.garageId}|${q.updatedSince?.toISOString() ?? ''}|${q.make?.toLowerCase() ?? ''}|${q.fuel ?? ''}`,
      q,
      (v) => ({ sortValue: v.publishedAt, id: v.id }),
      (after, limit) =>
        vehicles.list({
          garageId: q.garageId,
          limit,
          after,
          updatedSince: q.updatedSince,
          make: q.make,
          fuel: q.fuel,
        }),
    );
