import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';

/** A probe must answer quickly even when a dependency hangs. */
export const READINESS_TIMEOUT_MS = 1500;

const Health = Type.Object(
  {
    status: Type.Enum(['ok', 'unavailable']),
    checks: Type.Object(
      {
        postgres: Type.Enum(['up', 'down']),
        redis: Type.Enum(['up', 'down', 'absent']),
        draining: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/**
 * Liveness and readiness for orchestrators and load balancers (docs/reference/contract.md §6); not part of the public API document.
 * Liveness never probes anything (a database outage must not get every container restarted): it shows the last
 * readiness report, probing only before the first one.
 */
const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
  // A first report before the first request, so that liveness answers at once from the start.
  app.addHook('onReady', async () => {
    await app.readiness.report(READINESS_TIMEOUT_MS);
  });

  app.get('/health/live', { schema: { hide: true, response: { 200: Health } } }, async () => {
    const report = app.readiness.lastReport() ?? (await app.readiness.report(READINESS_TIMEOUT_MS));
    return { ...report, status: 'ok' as const };
  });

  app.get('/health/ready', { schema: { hide: true, response: { 200: Health, 503: Health } } }, async (_request, reply) => {
    const report = await app.readiness.report(READINESS_TIMEOUT_MS);
    return reply.code(report.status === 'ok' ? 200 : 503).send(report);
  });
};

export default healthRoutes;
