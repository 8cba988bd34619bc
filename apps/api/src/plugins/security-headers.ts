import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * The headers helmet's defaults set (CSP, HSTS, nosniff, frame and referrer policies, …), computed once: they never
 * change from one response to the next, and @fastify/helmet's global mode builds helmet's middleware again for every
 * request (its directive parsing alone was ~2 % of a cached page's CPU). Even without its global hook it adds two
 * hooks to every request, so @fastify/helmet itself is registered only in the docs page's scope (app.ts), where
 * `reply.helmet(options)` can give that page other headers.
 */
export const securityHeaders = (): Record<string, string> => {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet()({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
};

export default fp(
  async (app: FastifyInstance) => {
    const headers = securityHeaders();
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
  },
  { name: 'security-headers' },
);
