import { registerHealthMetrics, type HealthMetrics } from '@garage/observability';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { READINESS_TIMEOUT_MS } from '../routes/health.js';

/**
 * Readiness and each dependency's state as gauges beside the request metrics, for the alert rules. Probed once the
 * app is ready, when every adapter has registered its readiness check.
 */
export default fp(
  async (app: FastifyInstance) => {
    let gauges: HealthMetrics | undefined;
    app.addHook('onReady', async () => {
      gauges = registerHealthMetrics(app.metrics.registry, () => app.readiness.report(READINESS_TIMEOUT_MS));
    });
    app.addHook('onClose', async () => gauges?.stop());
  },
  { name: 'health-metrics', dependencies: ['readiness', 'metrics'] },
);
