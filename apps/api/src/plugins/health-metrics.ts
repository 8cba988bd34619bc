import { registerHealthMetrics } from '@garage/observability';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { READINESS_TIMEOUT_MS } from '../routes/health.js';

/** Readiness and each dependency's state as gauges beside the request metrics, for the alert rules. */
export default fp(
  async (app: FastifyInstance) => {
    registerHealthMetrics(app.metrics.registry, () => app.readiness.report(READINESS_TIMEOUT_MS));
  },
  { name: 'health-metrics', dependencies: ['readiness', 'metrics'] },
);
