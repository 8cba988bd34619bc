import type { Vehicle } from './vehicle.js';
import { NotFoundError } from '../kernel/errors.js';
import type { VehicleRepository } from './vehicle-repository.port.js';

export const makeGetVehicle =
  ({ vehicles }: { vehicles: Pick<VehicleRepository, 'findPublicById'> }) =>
  async (garageId: string, vehicleId: string): Promise<Vehicle> => {
    const found = await vehicles.findPublicById(vehicleId, garageId);
    if (!found) throw new NotFoundError('Vehicle not found');
    const { garageId: _owner, ...vehicle } = found;
    return vehicle;
  };
