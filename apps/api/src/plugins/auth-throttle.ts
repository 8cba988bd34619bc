import { DomainError, isDomainError } from '@garage/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ipCounter } from './rate-limits.js';

/**
 * CONTRACT.md §4.5: an IP that has drawn more than 30 401 responses within a minute gets 429 on key-authenticated
 * endpoints until that minute ends. The minute starts at the first failure, as for the route limits.
 */
export const FAILED_AUTH_LIMIT = { max: 30, timeWindow: 60_000 } as const;

export type ThrottledAuthentication = <T>(request: FastifyRequest, reply: FastifyReply, authenticate: () => Promise<T>) => Promise<T>;

/**
 * Wraps key authentication in the failed-authentication throttle. The count lives where the route limits live
 * (Redis when configured, so every instance sees every failure; memory otherwise) and fails open with them: should
 * Redis be unreachable, authentication proceeds unthrottled rather than failing. Valid keys from a throttled IP are
 * refused too, so that guessing cannot continue by mixing in a known key.
 */
export const makeThrottledAuthentication = (app: FastifyInstance): ThrottledAuthentication => {
  const failures = ipCounter(app, { name: 'failed-auth', ...FAILED_AUTH_LIMIT });
  return async (request, reply, authenticate) => {
    const state = await failures.peek(request);
    if (state.exceeded) {
      reply.header('retry-after', String(Math.max(1, state.resetInSeconds)));
      throw new DomainError(
        'RATE_LIMITED',
        `Too many failed authentications from this address; retry in ${Math.max(1, state.resetInSeconds)} seconds`,
      );
    }
    try {
      return await authenticate();
    } catch (err) {
      if (isDomainError(err) && err.code === 'UNAUTHORIZED') await failures.hit(request);
      throw err;
    }
  };
};
