import { NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import type { Garage } from '../entities/garage.js';
import type { Principal } from '../entities/integration.js';
import { whenReady, type Awaitable } from '../services/awaitable.js';
import { isSlug, SLUG_MAX_LENGTH } from '../services/validate.js';
import type { Authenticate } from './authenticate.js';

/**
 * Fleet endpoints accept a key of any integration of the garage (no toggle needed) or the public `garageSlug`.
 * A key that is presented must be valid: a connector with a broken key should learn of it rather than silently
 * fall back to public access. A `garageSlug` that no garage could have is refused before any lookup: it is public
 * input, and text the database cannot hold (NUL) must never reach it. Like `authenticate`, it answers at once when the
 * lookups are cached, and refuses with a rejected promise.
 */
/** The garage a fleet request reads, and the integration whose key it carried (null for a public garageSlug). */
export interface FleetAccess {
  garageId: string;
  principal: Principal | null;
}

export const makeResolveFleetGarage =
  ({ authenticate, garages }: { authenticate: Authenticate; garages: { findBySlug(slug: string): Awaitable<Garage | null> } }) =>
  ({ apiKey, garageSlug }: { apiKey: string | undefined; garageSlug: string | undefined }): Awaitable<FleetAccess> => {
    try {
      if (apiKey !== undefined) return whenReady(authenticate(apiKey, null), (principal) => ({ garageId: principal.garageId, principal }));
      if (garageSlug === undefined) throw new UnauthorizedError();
      if (!isSlug(garageSlug)) {
        throw new ValidationError('Invalid query string', [
          { path: '/garageSlug', message: `must be lowercase letters, digits and single dashes, at most ${SLUG_MAX_LENGTH} characters` },
        ]);
      }
      return whenReady(garages.findBySlug(garageSlug), (garage) => {
        if (!garage) throw new NotFoundError('Garage not found');
        return { garageId: garage.id, principal: null };
      });
    } catch (err) {
      return Promise.reject(err);
    }
  };
