import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorBody } from './error-handler.js';
import { redactedPath } from '../logging.js';

/**
 * 405 METHOD_NOT_ALLOWED with `Allow` for a known path and a wrong method (docs/reference/contract.md §1), answered
 * by Fastify's own router: for every route pattern, a route with the methods it lacks. A request that reaches the
 * not-found handler is then always a 404, also when a route sends it there (the static files' `callNotFound` for a
 * file that does not exist). Registered after every route. The CORS preflight routes (`OPTIONS <prefix>*`) match
 * whole prefixes, so OPTIONS alone does not make a path known; it is listed in `Allow` on the paths a preflight
 * route covers.
 */
export default fp(
  async (app: FastifyInstance) => {
    const routes = [...app.routeMethods];
    const preflightPrefixes = routes.filter(([url, methods]) => url.endsWith('*') && methods.has('OPTIONS')).map(([url]) => url.slice(0, -1));
    for (const [url, methods] of routes) {
      if (![...methods].some((method) => method !== 'OPTIONS')) continue;
      // Fastify's router says which methods the pattern has, including those of a pattern of the same shape with
      // other parameter names (`/x/:id` and `/x/:token` are one path to it) and the HEAD it adds to every GET.
      const allowed = new Set(app.supportedMethods.filter((method) => app.hasRoute({ method, url })));
      if (preflightPrefixes.some((prefix) => url.startsWith(prefix))) allowed.add('OPTIONS');
      // HEAD comes with GET: Fastify adds it to every GET route.
      const missing = app.supportedMethods.filter((method) => !allowed.has(method) && method !== 'HEAD');
      if (missing.length === 0) continue;
      const allow = [...allowed].sort().join(', ');
      app.route({
        method: missing,
        url,
        schema: { hide: true },
        config: { methodNotAllowed: true },
        handler: async (request, reply) =>
          reply
            .code(405)
            .header('allow', allow)
            .send({ error: `Method ${request.method} is not allowed on ${redactedPath(request.url)}`, code: 'METHOD_NOT_ALLOWED' } satisfies ErrorBody),
      });
    }
  },
  { name: 'method-not-allowed', dependencies: ['route-methods'] },
);
