import cors from '@fastify/cors';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/**
 * Endpoints called from garage websites and quote pages allow cross-origin calls; key-authenticated ones send no
 * CORS header at all, so a browser never gets to use a key (docs/reference/contract.md §3). Each public resource is registered
 * through this plugin with its own prefix: the CORS hook then covers that scope only, and so does the preflight route
 * that @fastify/cors adds (`OPTIONS <prefix>*`), which keeps preflights to key routes unanswered.
 */
export interface PublicScopeOptions {
  routes: FastifyPluginAsync[];
}

export const publicScope: FastifyPluginAsync<PublicScopeOptions> = async (scope: FastifyInstance, { routes }) => {
  await scope.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'POST'],
    // Garage-Version: a page chooses the shapes it reads (docs/reference/contract.md §8), as @garage/client does on every call.
    allowedHeaders: ['Content-Type', 'Garage-Version', 'Idempotency-Key', 'If-None-Match', 'X-Request-Id'],
    exposedHeaders: [
      'ETag',
      'X-Request-Id',
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Idempotent-Replayed',
      'Garage-Version',
      'Deprecation',
      'Sunset',
    ],
    maxAge: 600,
    // A bare OPTIONS (no Origin) would otherwise get a text/plain 400 instead of the contract's error body.
    strictPreflight: false,
  });
  // Helmet's default (same-origin) would stop garage websites from embedding these responses.
  scope.addHook('onRequest', async (_request, reply) => {
    reply.header('cross-origin-resource-policy', 'cross-origin');
  });
  for (const route of routes) await scope.register(route);
};
