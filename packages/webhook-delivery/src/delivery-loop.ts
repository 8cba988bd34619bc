import type { DeliveryLogger } from './logger.js';

export interface DeliveryLoopOptions {
  /** One delivery pass; resolves to the number of deliveries attempted (0: nothing was due). */
  deliver: () => Promise<number>;
  logger: Pick<DeliveryLogger, 'error'>;
  /** How often to look for due deliveries when there is nothing to do. */
  intervalMs?: number;
  /** Aborting it stops the loop like `stop()`. */
  signal?: AbortSignal;
}

export interface DeliveryLoop {
  /** Stops polling and resolves once the pass in flight, if any, has sent and recorded everything it claimed. */
  stop(): Promise<void>;
}

const MAX_ERROR_BACKOFF_MS = 30_000;

/**
 * Polls for due deliveries: passes follow each other without pause while there is work (a backlog drains at once),
 * then one pass every `intervalMs`. A failing pass (database unreachable) is logged and retried with a growing
 * pause, so the loop outlives an outage and resumes by itself.
 */
export const startDeliveryLoop = ({ deliver, logger, intervalMs = 1_000, signal }: DeliveryLoopOptions): DeliveryLoop => {
  let stopping = false;
  let wake: () => void = () => {};

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const run = async () => {
    let failures = 0;
    while (!stopping) {
      let attempted = 0;
      try {
        attempted = await deliver();
        failures = 0;
      } catch (err) {
        failures += 1;
        logger.error({ err }, 'webhook delivery pass failed');
      }
      if (stopping) break;
      if (attempted > 0) continue;
      await pause(failures > 0 ? Math.min(intervalMs * 2 ** (failures - 1), MAX_ERROR_BACKOFF_MS) : intervalMs);
    }
  };

  const done = run();
  const stop = () => {
    stopping = true;
    wake();
    return done;
  };
  if (signal?.aborted) void stop();
  else signal?.addEventListener('abort', () => void stop(), { once: true });
  return { stop };
};
