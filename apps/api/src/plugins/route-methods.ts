import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods each route pattern was registered with, as the app's routes were added. */
    routeMethods: ReadonlyMap<string, ReadonlySet<string>>;
  }
  interface FastifyContextConfig {
    /** Set on the routes that answer 405 (plugins/method-not-allowed.ts): they make no pattern known. */
    methodNotAllowed?: boolean;
  }
}

/**
 * Remembers the methods of every route pattern, so that the routes answering 405 can be added for the others
 * (plugins/method-not-allowed.ts). Registered before any route.
 */
export default fp(
  async (app: FastifyInstance) => {
    const methods = new Map<string, Set<string>>();
    app.addHook('onRoute', (route) => {
      if (route.config?.methodNotAllowed) return;
      const known = methods.get(route.url) ?? new Set<string>();
      for (const method of [route.method].flat()) known.add(method);
      methods.set(route.url, known);
    });
    app.decorate('routeMethods', methods);
  },
  { name: 'route-methods' },
);
