import { UnauthorizedError } from '../kernel/errors.js';
import type { Principal } from './integration.js';

/**
 * The 401 of a valid key whose integration has the endpoint's toggle off: the same code and message as every 401
 * (a prober learns nothing), but the transport knows the key is valid, so it neither counts it as a failed
 * authentication nor throttles it, and answers at the integration's version (docs/reference/contract.md §4.5, §8).
 */
export class ToggleOffError extends UnauthorizedError {
  readonly principal: Principal;

  constructor(principal: Principal) {
    super();
    this.principal = principal;
  }
}
