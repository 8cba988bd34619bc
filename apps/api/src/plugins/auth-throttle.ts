import { DomainError, isDomainError } from '@garage/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { clientKey, ipCounter } from './rate-limits.js';

/**
 * docs/reference/contract.md §4.5: an IP that has drawn more than 30 401 responses within a minute gets 429 on key-authenticated
 * endpoints until that minute ends. The minute starts at the first failure, as for the route limits.
 */
export const FAILED_AUTH_LIMIT = { max: 30, timeWindow: 60_000 } as const;

/** How many throttled addresses one instance remembers; past it the least recently seen is forgotten first. */
const THROTTLED_IPS_MAX = 10_000;

/** Runs `authenticate` under the throttle: refused at once for a throttled address, its refusals counted. */
export type ThrottledAuthentication = <T>(request: FastifyRequest, reply: FastifyReply, authenticate: () => Promise<T>) => Promise<T>;

const rateLimited = (reply: FastifyReply, untilMs: number, nowMs: number): DomainError => {
  const seconds = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  reply.header('retry-after', String(seconds));
  return new DomainError('RATE_LIMITED', `Too many failed authentications from this address; retry in ${seconds} seconds`);
};

/**
 * Wraps key authentication in the failed-authentication throttle, at no cost on the success path (§4.5: a request
 * with a valid key makes no Redis round trip for it). Only failures are counted, where the route limits count (Redis
 * when configured, so every instance sees every failure; memory otherwise), and a count that passes the limit is
 * remembered by the instance that counted it, until the window ends. A throttled address is then refused on that
 * instance whatever key it sends (guessing cannot continue by mixing in a known key); on an instance that has not
 * counted one of its failures since, its next failure is refused with 429 and teaches that instance too. Should
 * Redis be unreachable, failures are not counted and authentication proceeds unthrottled rather than failing.
 */
export const makeThrottledAuthentication = (app: FastifyInstance): ThrottledAuthentication => {
  // One over the limit, so that the counter tells the failure that crosses the limit (the 31st 401, still a 401 but
  // from then on the address is throttled) from the ones after it (refused).
  const failures = ipCounter(app, { name: 'failed-auth', max: FAILED_AUTH_LIMIT.max + 1, timeWindow: FAILED_AUTH_LIMIT.timeWindow });
  // Each address is forgotten when its window ends, so that an instance that throttles none again skips the check.
  const throttledUntil = new LRUCache<string, number>({ max: THROTTLED_IPS_MAX, ttlAutopurge: true });
  /** A failure of authentication: counted if it is a refused key, then thrown on (or replaced by a 429). */
  const counted = async (request: FastifyRequest, reply: FastifyReply, err: unknown): Promise<never> => {
    if (!isDomainError(err) || err.code !== 'UNAUTHORIZED') throw err;
    const state = await failures.hit(request);
    if (state.remaining > 0) throw err;
    const now = Date.now();
    const end = now + state.resetInSeconds * 1000;
    throttledUntil.set(clientKey(request), end, { ttl: end - now });
    if (state.exceeded) throw rateLimited(reply, end, now);
    throw err;
  };
  return async (request, reply, authenticate) => {
    // While this instance throttles no address, a request's address (behind a proxy, a parse of X-Forwarded-For) is
    // not worked out at all.
    if (throttledUntil.size > 0) {
      const ip = clientKey(request);
      const until = throttledUntil.get(ip);
      if (until !== undefined) {
        if (until > Date.now()) throw rateLimited(reply, until, Date.now());
        throttledUntil.delete(ip);
      }
    }
    try {
      return await authenticate();
    } catch (err) {
      return counted(request, reply, err);
    }
  };
};
