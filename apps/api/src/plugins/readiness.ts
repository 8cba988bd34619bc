import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Resolves when the dependency answers, rejects otherwise. */
export type ReadinessCheck = () => Promise<void>;

export interface Readiness {
  /** Each adapter that a request needs registers its probe here (database now; Redis when it is configured). */
  add(name: string, check: ReadinessCheck): void;
  /** Runs every probe in parallel, each bounded by `timeoutMs`; returns the names of those that failed. */
  failing(timeoutMs: number): Promise<string[]>;
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

export default fp(
  async (app: FastifyInstance) => {
    const checks = new Map<string, ReadinessCheck>();
    app.decorate('readiness', {
      add(name, check) {
        checks.set(name, check);
      },
      async failing(timeoutMs) {
        const results = await Promise.all(
          [...checks].map(async ([name, check]) => {
            try {
              await withTimeout(check, timeoutMs);
              return null;
            } catch (err) {
              app.log.warn({ err, dependency: name }, 'readiness check failed');
              return name;
            }
          }),
        );
        return results.filter((name): name is string => name !== null);
      },
    } satisfies Readiness);
  },
  { name: 'readiness' },
);
