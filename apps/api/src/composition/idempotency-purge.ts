import { systemClock, type Clock } from '@garage/domain';
import { makeIdempotencyStore } from '@garage/postgres';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** How often each instance deletes Idempotency-Key records past their 24 hours; any instance may do it. */
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 15 * 60_000;

/** Deletes expired Idempotency-Key records every `intervalMs` until the app closes; never keeps the process alive. */
export default fp(
  async (
    app: FastifyInstance,
    { clock = systemClock, intervalMs = IDEMPOTENCY_PURGE_INTERVAL_MS }: { clock?: Clock; intervalMs?: number },
  ) => {
    const store = makeIdempotencyStore(app.storage.handle.db);
    const timer = setInterval(() => {
      store.purgeExpired(clock.now()).then(
        (purged) => {
          if (purged > 0) app.log.info({ purged }, 'expired idempotency keys purged');
        },
        (err: unknown) => app.log.warn({ err }, 'could not purge expired idempotency keys; retrying at the next interval'),
      );
    }, intervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'idempotency-purge', dependencies: ['storage'] },
);
