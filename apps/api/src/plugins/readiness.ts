import type { HealthReport } from '@garage/observability';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Resolves when the dependency answers, rejects otherwise. */
export type ReadinessCheck = () => Promise<void>;

export type DependencyName = 'postgres' | 'redis';

export type { HealthReport };

export interface Readiness {
  /** Each adapter a request may need registers its probe here: Postgres always, Redis when it is configured. */
  add(name: DependencyName, check: ReadinessCheck): void;
  /**
   * Probes every dependency in parallel, each bounded by `timeoutMs`; callers within `PROBE_SHARE_MS` of a probe (or
   * during it) share its result. `unavailable` only when this instance cannot
   * serve: Postgres does not answer, or it is draining. A Redis outage is reported but keeps the instance ready: the
   * limits are then simply not enforced (docs/reference/contract.md §4.5), which beats taking every instance out of the balancer.
   */
  report(timeoutMs: number): Promise<HealthReport>;
  /** The last report, or null before the first: what liveness shows without probing anything. */
  lastReport(): HealthReport | null;
  /** SIGTERM: readiness answers 503 from now on, while requests are still served. */
  drain(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

const withTimeout = (check: ReadinessCheck, ms: number) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    check().then(resolve, reject).finally(() => clearTimeout(timer));
  });

/**
 * How long one probe of the dependencies answers every readiness request. `/health/ready` is on the public port:
 * without this, each request would cost a database and a Redis round trip, which anyone could multiply.
 */
export const PROBE_SHARE_MS = 1000;

type Probed = { postgres: 'up' | 'down'; redis: 'up' | 'down' | 'absent' };

export default fp(
  async (app: FastifyInstance, { probeShareMs = PROBE_SHARE_MS }: { probeShareMs?: number | undefined } = {}) => {
    const checks = new Map<DependencyName, ReadinessCheck>();
    let draining = false;
    let last: HealthReport | null = null;
    /** The probe under way, which concurrent callers share, then its result until `probeShareMs` has passed. */
    let shared: { result: Promise<Probed>; settledAt: number | null } | null = null;
    const probe = async (name: DependencyName, timeoutMs: number): Promise<'up' | 'down' | 'absent'> => {
      const check = checks.get(name);
      if (!check) return 'absent';
      try {
        await withTimeout(check, timeoutMs);
        return 'up';
      } catch (err) {
        app.log.warn({ err, dependency: name }, 'readiness check failed');
        return 'down';
      }
    };
    app.decorate('readiness', {
      add(name, check) {
        checks.set(name, check);
      },
      async report(timeoutMs) {
        if (shared === null || (shared.settledAt !== null && Date.now() - shared.settledAt >= probeShareMs)) {
          const current: { result: Promise<Probed>; settledAt: number | null } = {
            result: Promise.all([probe('postgres', timeoutMs), probe('redis', timeoutMs)]).then(([postgres, redis]) => {
              current.settledAt = Date.now();
              return { postgres: postgres === 'up' ? 'up' : 'down', redis };
            }),
            settledAt: null,
          };
          shared = current;
        }
        const { postgres, redis } = await shared.result;
        // Draining is read now, not shared: SIGTERM turns readiness to 503 at once.
        const checked = { postgres, redis, draining };
        last = { status: checked.postgres === 'up' && !draining ? 'ok' : 'unavailable', checks: checked };
        return last;
      },
      lastReport: () => (last && { ...last, checks: { ...last.checks, draining } }),
      drain() {
        draining = true;
      },
    } satisfies Readiness);
  },
  { name: 'readiness' },
);
