import { NotFoundError, UnauthorizedError, ValidationError } from '../shared/errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import { isSlug, SLUG_MAX_LENGTH } from '../shared/validation.js';
import type { Authenticate } from '../integrations/authenticate.js';

/**
 * Fleet endpoints accept a key of any integration of the garage (no toggle needed) or the public `garageSlug`.
 * A key that is presented must be valid: a connector with a broken key should learn of it rather than silently
 * fall back to public access. A `garageSlug` that no garage could have is refused before any lookup: it is public
 * input, and text the database cannot hold (NUL) must never reach it.
 */
export const makeResolveFleetGarage =
  ({ authenticate, garages }: { authenticate: Authenticate; garages: Pick<GarageRepository, 'findBySlug'> }) =>
  async ({ apiKey, garageSlug }: { apiKey: string | undefined; garageSlug: string | undefined }): Promise<string> => {
    if (apiKey !== undefined) return (await authenticate(apiKey, null)).garageId;
    if (garageSlug === undefined) throw new UnauthorizedError();
    if (!isSlug(garageSlug)) {
      throw new ValidationError('Invalid query string', [
        { path: '/garageSlug', message: `must be lowercase letters, digits and single dashes, at most ${SLUG_MAX_LENGTH} characters` },
      ]);
    }
    const garage = await garages.findBySlug(garageSlug);
    if (!garage) throw new NotFoundError('Garage not found');
    return garage.id;
  };
