import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's options for what the API answers: JSON, which no browser renders as a page. A CSP that allows nothing and
 * no framing, HSTS, `nosniff`, no referrer, same-origin resources; the headers that only concern documents (the
 * opener policy, origin-agent clusters, DNS prefetching, IE's download options, Flash's cross-domain policies, the
 * XSS auditor) are left out, as is the CSP of a page. Six short headers instead of helmet's twelve (~700 bytes), which
 * on a 304 or a cached page would outweigh the rest of the response. The documentation page gets helmet's defaults.
 */
const JSON_API_HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' },
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const satisfies HelmetOptions;

/**
 * The headers helmet sets with `options` (its defaults without), computed once: they never change from one response
 * to the next, and @fastify/helmet's global mode builds helmet's middleware again for every request (its directive
 * parsing alone was ~2 % of a cached page's CPU). Even without its global hook it adds two hooks to every request,
 * so @fastify/helmet itself is registered only in the docs page's scope (app.ts).
 */
export const securityHeaders = (options?: HelmetOptions): Record<string, string> => {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
};

/** Sets `headers` on every response of the scope, from its first hook on (errors and 404s included). */
export const setsHeaders = (headers: Record<string, string>) => (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
  reply.headers(headers);
  done();
};

/**
 * The headers every response carries, from its first hook on (errors and 404s included): the JSON API's security
 * headers and the request id (docs/reference/contract.md §1). One hook for both, since every hook runs on every request.
 */
export default fp(
  async (app: FastifyInstance) => {
    const headers = securityHeaders(JSON_API_HELMET_OPTIONS);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(headers).header('x-request-id', request.id);
      done();
    });
  },
  { name: 'response-headers' },
);
