import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { requestMode } from '../logging.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the metrics read from a connection pool (pg's `Pool` has these three counters). */
export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export interface Metrics {
  /** This instance's registry: every app gets its own, so several apps in one process never share counters. */
  registry: Registry;
  /** Exposes the pool's connection counts as gauges, read at scrape time. */
  observePool(pool: PoolStats): void;
  /** Counts an error of the Redis connection (`redis_connection_errors_total`). */
  countRedisError(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Requests that matched no route share one label value, so scanners cannot grow the label set with random URLs. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The route pattern (`/api/public/fleet/:vehicleId`), never the URL: ids, quote tokens and the discouraged `apiKey`
 * query parameter must not end up in labels, and label cardinality must stay bounded.
 */
const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? UNMATCHED_ROUTE;

/**
 * Prometheus metrics at `GET /metrics` (prom-client). Meant to be scraped per instance, directly, not through the
 * load balancer; it is not part of the public API document. Registered before the routes so that every route, the
 * 404 handler and the rate limiters' 429s are counted.
 */
export default fp(
  async (app: FastifyInstance) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const labelNames = ['method', 'route', 'status_code', 'mode'] as const;
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern, status code and mode (live or test).',
      labelNames,
      registers: [registry],
    });
    const durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to sending its response, by method, route pattern, status code and mode (live or test).',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const rateLimited = new Counter({
      name: 'http_rate_limited_total',
      help: 'Requests refused with 429 RATE_LIMITED (per-IP limits and failed-authentication throttling), by route pattern.',
      labelNames: ['route'] as const,
      registers: [registry],
    });

    const redisErrors = new Counter({
      name: 'redis_connection_errors_total',
      help: 'Errors of the Redis connection (refused, dropped, timed out), each failed reconnection attempt counted.',
      registers: [registry],
    });

    // A callback hook: every request runs it, and an async hook costs a promise each time.
    app.addHook('onResponse', (request, reply, done) => {
      const route = routeOf(request);
      const labels = { method: request.method, route, status_code: String(reply.statusCode), mode: requestMode(request) };
      requests.inc(labels);
      durations.observe(labels, reply.elapsedTime / 1000);
      if (reply.statusCode === 429) rateLimited.inc({ route });
      done();
    });

    app.decorate('metrics', {
      registry,
      countRedisError: () => redisErrors.inc(),
      observePool: (pool) => {
        const gauge = (name: string, help: string, read: () => number) =>
          new Gauge({
            name,
            help,
            registers: [registry],
            collect() {
              this.set(read());
            },
          });
        gauge('db_pool_connections', 'Connections the database pool holds (idle and in use).', () => pool.totalCount);
        gauge('db_pool_idle_connections', 'Pool connections not in use.', () => pool.idleCount);
        gauge('db_pool_waiting_requests', 'Queries waiting for a pool connection.', () => pool.waitingCount);
      },
    } satisfies Metrics);
  },
  { name: 'metrics' },
);
