import { DomainError, growingLru, isDomainError, ToggleOffError } from '@garage/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientKey, ipCounter } from './rate-limits.js';

/**
 * docs/reference/contract.md §4.5: an IP that has drawn more than 30 401 responses for a missing, unknown or revoked
 * key within a minute gets 429 instead of 401 for such keys until that minute ends. The minute starts at the first
 * failure, as for the route limits.
 */
export const FAILED_AUTH_LIMIT = { max: 30, timeWindow: 60_000 } as const;

/** How many throttled addresses one instance remembers; past it the least recently seen is forgotten first. */
const THROTTLED_IPS_MAX = 10_000;

/** Runs `authenticate` under the throttle: its refused keys counted, and refused with 429 past the limit. */
export type ThrottledAuthentication = <T>(request: FastifyRequest, reply: FastifyReply, authenticate: () => Promise<T>) => Promise<T>;

const rateLimited = (reply: FastifyReply, untilMs: number, nowMs: number): DomainError => {
  const seconds = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  reply.header('retry-after', String(seconds));
  return new DomainError('RATE_LIMITED', `Too many failed authentications from this address; retry in ${seconds} seconds`);
};

/** A key that is missing, unknown or revoked; a valid key whose toggle is off is not a failed authentication. */
const isRefusedKey = (err: unknown): boolean => isDomainError(err) && err.code === 'UNAUTHORIZED' && !(err instanceof ToggleOffError);

/**
 * Wraps key authentication in the failed-authentication throttle. A valid key is always served, whatever its address
 * has drawn: a neighbour behind the same NAT or /64 cannot lock a connector out, and guessing gains nothing from
 * mixing in a known key. The throttle runs only once authentication has failed, so a valid key costs no Redis round
 * trip (§4.5). Failures are counted where the route limits count (Redis when configured, so every instance sees
 * every failure; memory otherwise), and a count that passes the limit is remembered by the instance that counted
 * it, until the window ends, so that its further failures are refused without a round trip; on an instance that has
 * not counted one since, the next failure is refused from the shared count and teaches that instance too. Should
 * Redis be unreachable, failures are not counted and stay 401s rather than failing.
 */
export const makeThrottledAuthentication = (app: FastifyInstance): ThrottledAuthentication => {
  // One over the limit, so that the counter tells the failure that crosses the limit (the 31st 401, still a 401 but
  // from then on the address is throttled) from the ones after it (refused).
  const failures = ipCounter(app, { name: 'failed-auth', max: FAILED_AUTH_LIMIT.max + 1, timeWindow: FAILED_AUTH_LIMIT.timeWindow });
  // Each address is forgotten when its window ends.
  const throttledUntil = growingLru<string, number>(THROTTLED_IPS_MAX, { ttlAutopurge: true });
  /** A failure of authentication: counted if it is a refused key, then thrown on (or replaced by a 429). */
  const counted = async (request: FastifyRequest, reply: FastifyReply, err: unknown): Promise<never> => {
    if (!isRefusedKey(err)) throw err;
    const ip = clientKey(request);
    const known = throttledUntil.get(ip);
    if (known !== undefined && known > Date.now()) throw rateLimited(reply, known, Date.now());
    const state = await failures.hit(request);
    if (state.remaining > 0) throw err;
    const now = Date.now();
    const end = now + state.resetInSeconds * 1000;
    throttledUntil.set(ip, end, { ttl: end - now });
    if (state.exceeded) throw rateLimited(reply, end, now);
    throw err;
  };
  return async (request, reply, authenticate) => {
    try {
      return await authenticate();
    } catch (err) {
      return counted(request, reply, err);
    }
  };
};
