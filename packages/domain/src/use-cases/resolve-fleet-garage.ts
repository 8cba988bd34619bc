import { NotFoundError, UnauthorizedError } from '../errors.js';
import type { GarageRepository } from '../ports/garage-repository.port.js';
import type { Authenticate } from './authenticate.js';

/**
 * Fleet endpoints accept a key of any integration of the garage (no toggle needed) or the public `garageSlug`.
 * A key that is presented must be valid: a connector with a broken key should learn of it rather than silently
 * fall back to public access.
 */
export const makeResolveFleetGarage =
  ({ authenticate, garages }: { authenticate: Authenticate; garages: Pick<GarageRepository, 'findBySlug'> }) =>
  async ({ apiKey, garageSlug }: { apiKey: string | undefined; garageSlug: string | undefined }): Promise<string> => {
    if (apiKey !== undefined) return (await authenticate(apiKey, null)).garageId;
    if (garageSlug === undefined) throw new UnauthorizedError('Send an x-api-key header or a garageSlug query parameter');
    const garage = await garages.findBySlug(garageSlug);
    if (!garage) throw new NotFoundError('Garage not found');
    return garage.id;
  };
