import type { Fuel, Vehicle } from './vehicle.js';
import type { VehicleRepository } from './vehicle-repository.port.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { fetchRenderedPage, type PageRequest, type RenderedPage } from '../kernel/page.js';

export interface ListVehiclesQuery extends PageRequest {
  garageId: string;
  updatedSince: Date | null;
  make: string | null;
  fuel: Fuel | null;
}

/** Newest `publishedAt` first; sold vehicles never appear. */
export const makeListVehicles =
  ({ vehicles, cursors }: { vehicles: Pick<VehicleRepository, 'listRendered'>; cursors: CursorCodec }) =>
  (q: ListVehiclesQuery): Promise<RenderedPage> =>
    fetchRenderedPage<Vehicle>(
      cursors,
      `vehicles|${q.garageId}|${q.updatedSince?.toISOString() ?? ''}|${q.make?.toLowerCase() ?? ''}|${q.fuel ?? ''}`,
      q,
      (v) => ({ sortValue: new Date(v.publishedAt), id: v.id }),
      (after, limit) =>
        vehicles.listRendered({
          garageId: q.garageId,
          limit,
          after,
          updatedSince: q.updatedSince,
          make: q.make,
          fuel: q.fuel,
        }),
    );
