import { NotFoundError, UnauthorizedError, ValidationError } from '../kernel/errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import { isSlug, SLUG_MAX_LENGTH } from '../kernel/validation.js';
import type { Authenticate } from '../integrations/authenticate.js';
import type { Principal } from '../integrations/integration.js';

/** The garage a fleet request reads, and the integration whose key it carried (null for a public garageSlug). */
export interface FleetAccess {
  garageId: string;
  principal: Principal | null;
}

/**
 * Fleet endpoints accept a key of any integration of the garage (no toggle needed) or the public `garageSlug`.
 * A key that is presented must be valid: a connector with a broken key should learn of it rather than silently
 * fall back to public access. A `garageSlug` that no garage could have is refused before any lookup: it is public
 * input, and text the database cannot hold (NUL) must never reach it.
 */
export const makeResolveFleetGarage =
  ({ authenticate, garages }: { authenticate: Authenticate; garages: Pick<GarageRepository, 'findBySlug'> }) =>
  async ({ apiKey, garageSlug }: { apiKey: string | undefined; garageSlug: string | undefined }): Promise<FleetAccess> => {
    if (apiKey !== undefined) {
      const principal = await authenticate(apiKey, null);
      return { garageId: principal.garageId, principal };
    }
    if (garageSlug === undefined) throw new UnauthorizedError();
    if (!isSlug(garageSlug)) {
      throw new ValidationError('Invalid query string', [
        { path: '/garageSlug', message: `must be lowercase letters, digits and single dashes, at most ${SLUG_MAX_LENGTH} characters` },
      ]);
    }
    const garage = await garages.findBySlug(garageSlug);
    if (!garage) throw new NotFoundError('Garage not found');
    return { garageId: garage.id, principal: null };
  };
