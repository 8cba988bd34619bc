import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import Router from 'find-my-way';

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods the app answers on this path (no query string), for 405's `Allow`; empty for an unknown path. */
    allowedMethods(path: string): string[];
  }
}

const noop = () => {};

/**
 * Remembers every route in a router of the same kind as Fastify's (find-my-way, same trailing-slash rule), so that a
 * request that found no route can tell "known path, wrong method" (405) from "unknown path" (404). Registered before
 * any route. The CORS preflight routes (`OPTIONS <prefix>*`) match whole prefixes, so OPTIONS alone does not make a
 * path known; it is listed in `Allow` when another method matches too.
 */
export default fp(
  async (app: FastifyInstance, { ignoreTrailingSlash }: { ignoreTrailingSlash: boolean }) => {
    const router = Router({ ignoreTrailingSlash });
    const methods = new Set<Router.HTTPMethod>();
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat() as Router.HTTPMethod[]) {
        if (!router.hasRoute(method, route.url)) router.on(method, route.url, noop);
        methods.add(method);
      }
    });
    app.decorate('allowedMethods', (path: string) => {
      const matching = [...methods].filter((method) => router.find(method, path) !== null);
      return matching.some((method) => method !== 'OPTIONS') ? matching.sort() : [];
    });
  },
  { name: 'route-methods' },
);
