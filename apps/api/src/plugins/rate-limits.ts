import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { DomainError } from '@garage/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { clientAddress } from '../http/client-address.js';

/** The counter of requests whose client closed the connection before they were counted: they have no address left. */
const CLOSED_CONNECTION = 'closed';

/**
 * Who a per-client limit counts: the client address, and for IPv6 its /64, the smallest allocation a client
 * usually holds, so that rotating addresses inside it gains nothing. Every limit and throttle keys on this.
 */
export const clientKey = (request: FastifyRequest): string => {
  const address = clientAddress(request);
  return address === undefined ? CLOSED_CONNECTION : normalizeIP(address, 64);
};

/**
 * The per-client limits of docs/reference/contract.md §4.5, for `config.rateLimit` of the routes they guard. The plugin keys a route's
 * counter by method, route pattern and client IP, so every quote token shares one counter per IP and endpoint.
 */
export const RATE_LIMITS = {
  lead: { max: 5, timeWindow: 60_000 },
  quoteDecision: { max: 5, timeWindow: 15 * 60_000 },
  /**
   * §5.1: 10 webhook tests a minute per integration, whatever the address. Counted once the key is checked
   * (preHandler), so that the counter is the caller's integration; a request without a valid key never gets there.
   */
  webhookTest: {
    max: 10,
    timeWindow: 60_000,
    hook: 'preHandler',
    // In braces: a Redis Cluster hash tag, as for the per-IP counters.
    keyGenerator: (request: FastifyRequest) => `webhook-test:{${request.principal?.integrationId ?? clientKey(request)}}`,
  },
  /** 30 retries a minute per integration: each one is an outgoing request, as a test is. */
  webhookRetry: {
    max: 30,
    timeWindow: 60_000,
    hook: 'preHandler',
    keyGenerator: (request: FastifyRequest) => `webhook-retry:{${request.principal?.integrationId ?? clientKey(request)}}`,
  },
} as const;

/** Prefix of every counter in Redis, so that the keys of this service are easy to find beside others. */
export const RATE_LIMIT_NAMESPACE = 'garage:rate-limit:';

export interface IpCounterState {
  /** More than `max` hits in the current window. */
  exceeded: boolean;
  remaining: number;
  resetInSeconds: number;
}

export interface IpCounter {
  /** Counts one more hit for the request's client IP and returns the state after it. */
  hit(request: FastifyRequest): Promise<IpCounterState>;
}

/**
 * A per-IP counter on the same store as the route limits (Redis when configured, failing open like them), for
 * throttles that count something other than the requests to one route, such as failed authentications:
 * `hit` on each 401. `name` keeps its counters apart from every other counter. While the store is unreachable a hit
 * reports nothing counted (`remaining` = `max`), so that callers fail open.
 */
export const ipCounter = (app: FastifyInstance, { name, max, timeWindow }: { name: string; max: number; timeWindow: number }): IpCounter => {
  const limiter = app.createRateLimit({ max, timeWindow, keyGenerator: (request) => `${name}:{${clientKey(request)}}` });
  return {
    async hit(request) {
      const result = await limiter(request);
      if (result.isAllowed) return { exceeded: false, remaining: max, resetInSeconds: 0 };
      return { exceeded: result.isExceeded, remaining: result.remaining, resetInSeconds: result.ttlInSeconds };
    },
  };
};

/**
 * @fastify/rate-limit, for the routes that ask for it (`global: false`). Counters live in Redis when `REDIS_URL` is set
 * (shared by every instance), in memory otherwise. The hook runs on `onRequest`, before parsing and validation, so
 * that every request counts, 400s and 404s included. Headers are the IETF draft's (`ratelimit-*`, `retry-after`).
 * Should Redis fail, `skipOnError` lets requests through unlimited rather than failing them, and the connection's
 * settings bound the wait (docs/reference/contract.md §4.5); the composition root reports the outage.
 */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(rateLimit, {
      global: false,
      enableDraftSpec: true,
      // One Redis or a Redis Cluster: the plugin's commands are single-key scripts, which a cluster client routes.
      redis: app.redis ?? undefined,
      nameSpace: RATE_LIMIT_NAMESPACE,
      // The client in braces is a Redis Cluster hash tag: every counter of one client lives on one shard.
      keyGenerator: (request) => `{${clientKey(request)}}`,
      skipOnError: true,
      // Thrown from the hook: the app's error handler turns it into the contract's body; the plugin has set the headers.
      errorResponseBuilder: (_request, { after }) => new DomainError('RATE_LIMITED', `Too many requests; retry in ${after}`),
    });
  },
  { name: 'rate-limits', dependencies: ['redis'] },
);
