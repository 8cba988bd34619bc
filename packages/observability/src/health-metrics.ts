import { Gauge, type Registry } from 'prom-client';
import type { HealthReport } from './health-server.js';

/**
 * Readiness as metrics, for alerting (deploy/prometheus/alerts.yaml): `health_ready` is 1 when `/health/ready` would
 * answer 200, and `health_dependency_up{dependency}` 1 or 0 per dependency the process uses (Postgres, Redis). The
 * dependencies are probed when Prometheus scrapes, as the readiness endpoint probes them, once for both gauges.
 */
export const registerHealthMetrics = (registry: Registry, report: () => Promise<HealthReport>): void => {
  let current: Promise<HealthReport> | null = null;
  const read = () => {
    current ??= report()
      .catch((): HealthReport => ({ status: 'unavailable', checks: { postgres: 'down', redis: 'absent', draining: false } }))
      .finally(() => setTimeout(() => (current = null), 0));
    return current;
  };
  new Gauge({
    name: 'health_ready',
    help: 'Whether this process is ready (1) or not (0): what /health/ready answers with 200 or 503.',
    registers: [registry],
    async collect() {
      this.set((await read()).status === 'ok' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'health_dependency_up',
    help: 'Whether a dependency of this process answers its readiness probe (1) or not (0), by dependency.',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      const { checks } = await read();
      this.reset();
      this.set({ dependency: 'postgres' }, checks.postgres === 'up' ? 1 : 0);
      if (checks.redis !== 'absent') this.set({ dependency: 'redis' }, checks.redis === 'up' ? 1 : 0);
    },
  });
};
