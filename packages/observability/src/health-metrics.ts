import { Gauge, type Registry } from 'prom-client';
import type { HealthReport } from './health-server.js';

export interface HealthMetrics {
  /** Stops probing (the process is closing). */
  stop(): void;
}

/** How often the dependencies are probed for the gauges: well within the alerts' `for` durations. */
const PROBE_INTERVAL_MS = 5_000;

/**
 * Readiness as metrics, for alerting (deploy/prometheus/alerts.yaml): `health_ready` is 1 when `/health/ready` would
 * answer 200, and `health_dependency_up{dependency}` 1 or 0 per dependency the process uses (Postgres, Redis). The
 * dependencies are probed on a timer of their own, not when Prometheus scrapes: a probe would otherwise take a pool
 * connection in the middle of the scrape and show in the pool's gauges.
 */
export const registerHealthMetrics = (registry: Registry, report: () => Promise<HealthReport>, intervalMs = PROBE_INTERVAL_MS): HealthMetrics => {
  const unreachable: HealthReport = { status: 'unavailable', checks: { postgres: 'down', redis: 'absent', draining: false } };
  let latest: Promise<HealthReport> = report().catch(() => unreachable);
  const timer = setInterval(() => {
    const next = report().catch(() => unreachable);
    // The previous result stays until the new one is in, so a scrape never waits for a hanging dependency.
    void next.then(() => (latest = next));
  }, intervalMs);
  timer.unref();
  new Gauge({
    name: 'health_ready',
    help: 'Whether this process is ready (1) or not (0): what /health/ready answers with 200 or 503.',
    registers: [registry],
    async collect() {
      this.set((await latest).status === 'ok' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'health_dependency_up',
    help: 'Whether a dependency of this process answers its readiness probe (1) or not (0), by dependency.',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      const { checks } = await latest;
      this.reset();
      this.set({ dependency: 'postgres' }, checks.postgres === 'up' ? 1 : 0);
      if (checks.redis !== 'absent') this.set({ dependency: 'redis' }, checks.redis === 'up' ? 1 : 0);
    },
  });
  return { stop: () => clearInterval(timer) };
};
