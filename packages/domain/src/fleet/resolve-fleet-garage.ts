import { NotFoundError, UnauthorizedError, ValidationError } from '../shared/errors.js';
import type { Garage } from '../garages/garage.js';
import { whenReady, type Awaitable } from '../shared/awaitable.js';
import { isSlug, SLUG_MAX_LENGTH } from '../shared/validation.js';
import type { Authenticate } from '../integrations/authenticate.js';

/**
 * Fleet endpoints accept a key of any integration of the garage (no toggle needed) or the public `garageSlug`.
 * A key that is presented must be valid: a connector with a broken key should learn of it rather than silently
 * fall back to public access. A `garageSlug` that no garage could have is refused before any lookup: it is public
 * input, and text the database cannot hold (NUL) must never reach it. Like `authenticate`, it answers at once when the
 * lookups are cached, and refuses with a rejected promise.
 */
export const makeResolveFleetGarage =
  ({ authenticate, garages }: { authenticate: Authenticate; garages: { findBySlug(slug: string): Awaitable<Garage | null> } }) =>
  ({ apiKey, garageSlug }: { apiKey: string | undefined; garageSlug: string | undefined }): Awaitable<string> => {
    try {
      if (apiKey !== undefined) return whenReady(authenticate(apiKey, null), (principal) => principal.garageId);
      if (garageSlug === undefined) throw new UnauthorizedError();
      if (!isSlug(garageSlug)) {
        throw new ValidationError('Invalid query string', [
          { path: '/garageSlug', message: `must be lowercase letters, digits and single dashes, at most ${SLUG_MAX_LENGTH} characters` },
        ]);
      }
      return whenReady(garages.findBySlug(garageSlug), (garage) => {
        if (!garage) throw new NotFoundError('Garage not found');
        return garage.id;
      });
    } catch (err) {
      return Promise.reject(err);
    }
  };
