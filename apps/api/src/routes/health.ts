import { UnavailableError } from '@garage/domain';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../schemas/error.js';

/** A probe must answer quickly even when a dependency hangs. */
const READINESS_TIMEOUT_MS = 1500;

const Status = Type.Object({ status: Type.Literal('ok') }, { additionalProperties: false });

/** Liveness and readiness for orchestrators and load balancers; not part of the public API document. */
const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });

  app.get('/health/live', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' as const }));

  app.get('/health/ready', { schema: { hide: true, response: { 200: Status, ...errorResponses() } } }, async () => {
    const failing = await app.readiness.failing(READINESS_TIMEOUT_MS);
    if (failing.length > 0) throw new UnavailableError(`Not ready: ${failing.join(', ')} unreachable`);
    return { status: 'ok' as const };
  });
};

export default healthRoutes;
