import { ToggleOffError, ValidationError, type Principal, type SyncToggle } from '@garage/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { makeThrottledAuthentication } from './auth-throttle.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * onRequest hook: a valid key whose integration has `toggle` on, else 401 (docs/reference/contract.md §3); with null, a valid key
     * whatever its toggles (the webhook self-service of §5.1).
     */
    requireKey(toggle: SyncToggle | null): onRequestHookHandler;
    /** onRequest hook for fleet routes: a key of any integration of the garage, or the public `garageSlug`. */
    fleetAccess: onRequestHookHandler;
  }
  interface FastifyRequest {
    /** The authenticated integration, on key routes. */
    principal: Principal | null;
    /** The garage the request is about, on key and fleet routes. */
    garageId: string | null;
  }
}

const queryParam = (request: FastifyRequest, name: string): string | undefined => {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new ValidationError('Invalid query string', [{ path: `/${name}`, message: 'must be given once' }]);
};

/**
 * The key from `x-api-key`, or from the discouraged `apiKey` query parameter, in which case the response says so with
 * `Deprecation: true` and a link to the documentation. Responses depend on the header, so caches must key on it.
 */
const readApiKey = (request: FastifyRequest, reply: FastifyReply): string | undefined => {
  reply.header('vary', 'x-api-key');
  const header = request.headers['x-api-key'];
  if (header !== undefined) return Array.isArray(header) ? header.join(',') : header;
  const fromQuery = queryParam(request, 'apiKey');
  if (fromQuery !== undefined) {
    reply.header('deprecation', 'true');
    reply.header('link', '</api/public/docs>; rel="deprecation"; type="text/html"');
  }
  return fromQuery;
};

/**
 * A fleet key in the query of a request a browser sent (it has an `Origin`) is a key placed in a web page, where
 * anyone reads it and with it the garage's appointments: refused, pages use the public `garageSlug` (§3).
 */
const refuseKeyInPage = (request: FastifyRequest): void => {
  if (request.headers.origin === undefined || request.headers['x-api-key'] !== undefined || queryParam(request, 'apiKey') === undefined) return;
  throw new ValidationError('Invalid query string', [
    { path: '/apiKey', message: 'a web page must not carry an API key: use garageSlug, and keep keys on servers' },
  ]);
};

/** Marks every answer to a test-key request, errors included (docs/reference/contract.md §9). */
const GARAGE_MODE_HEADER = 'garage-mode';
const markMode = (principal: Principal | null, reply: FastifyReply): void => {
  if (principal?.mode === 'test') reply.header(GARAGE_MODE_HEADER, 'test');
};

/** The garage of a request that went through `requireKey` or `fleetAccess`. */
export const garageOf = (request: FastifyRequest): string => {
  if (request.garageId === null) throw new Error(`route ${request.routeOptions.url} has no access hook`);
  return request.garageId;
};

export default fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('principal', null);
    app.decorateRequest('garageId', null);

    const throttled = makeThrottledAuthentication(app);
    const authenticate = async (request: FastifyRequest, reply: FastifyReply, toggle: SyncToggle | null) => {
      try {
        return await app.useCases.authenticate(readApiKey(request, reply), toggle);
      } catch (err) {
        // The key is valid: its 401 is answered at the integration's version, as its other responses (§8).
        if (err instanceof ToggleOffError) request.principal = err.principal;
        throw err;
      }
    };
    app.decorate('requireKey', (toggle: SyncToggle | null): onRequestHookHandler => async (request, reply) => {
      const principal = await throttled(request, reply, () => authenticate(request, reply, toggle));
      request.principal = principal;
      request.garageId = principal.garageId;
      markMode(principal, reply);
    });

    // A fleet request that carries a key is a key check like any other (§4.5): its failures count, and past the limit
    // a refused key draws 429. One with only the public garageSlug is not key-authenticated and is never throttled.
    const fleetAccess: onRequestHookHandler = async (request, reply) => {
      refuseKeyInPage(request);
      const apiKey = readApiKey(request, reply);
      // Without a key the answer is the garage's public showcase, the same for anyone: shared caches may keep it.
      request.publicRead = apiKey === undefined;
      const resolve = async () => app.useCases.resolveFleetGarage({ apiKey, garageSlug: queryParam(request, 'garageSlug') });
      const access = await (apiKey === undefined ? resolve() : throttled(request, reply, resolve));
      request.garageId = access.garageId;
      request.principal = access.principal;
      markMode(access.principal, reply);
    };
    app.decorate('fleetAccess', fleetAccess);
  },
  { name: 'auth', dependencies: ['use-cases', 'rate-limits', 'http-conventions'] },
);
