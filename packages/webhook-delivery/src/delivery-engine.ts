import { DELIVERY_LEASE_MS, type ClaimedDelivery, type Clock, type DeliveryQueue, type DeliveryReport } from '@garage/domain';
import type { DeliveryLogger } from './logger.js';

export interface DeliveryEngineOptions {
  queue: Pick<DeliveryQueue, 'claimDue' | 'nextDueAt'>;
  /** One attempt of a claimed delivery, recorded (see `makeAttemptDelivery`). */
  attempt: (delivery: ClaimedDelivery) => Promise<DeliveryReport>;
  clock: Clock;
  logger: Pick<DeliveryLogger, 'error'>;
  onDelivery?: (report: DeliveryReport) => void;
  /** Subscribes to commits that make deliveries due; resolves to the unsubscribe function. */
  listen?: (onWake: () => void) => Promise<() => Promise<void>>;
  /** Attempts in flight at once in this process. */
  maxInFlight?: number;
  /** Attempts in flight at once to one integration, so a hanging receiver holds a few slots, never all. */
  perIntegration?: number;
  /** The safety net: how long the engine sleeps at most without a notification. */
  pollIntervalMs?: number;
}

export interface DeliveryEngine {
  /** Claims nothing more and resolves once every attempt in flight has been recorded. */
  stop(): Promise<void>;
}

const MAX_ERROR_BACKOFF_MS = 30_000;
/** Below this a due time is "now": a timer that short would only spin. */
const MIN_SLEEP_MS = 20;

/**
 * Delivers webhooks as they become due (docs/reference/contract.md §5): woken by the outbox's NOTIFY at commit, it claims what is
 * due and starts each attempt on its own, up to `maxInFlight` at once and `perIntegration` per integration; each
 * finished attempt frees its slot and claims again. Between notifications it sleeps until the next retry is due, at
 * most `pollIntervalMs` (the net for a notification lost or a lease that ended on a crashed worker). Claims take a
 * lease with FOR UPDATE SKIP LOCKED, so any number of engines share one backlog without attempting a delivery twice.
 */
export const startDeliveryEngine = ({
  queue,
  attempt,
  clock,
  logger,
  onDelivery,
  listen,
  maxInFlight = 32,
  perIntegration = 4,
  pollIntervalMs = 5_000,
}: DeliveryEngineOptions): DeliveryEngine => {
  const inFlightBy = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let stopping = false;
  /** The claiming pass in progress, if any: stopping waits for it, so that what it claims is attempted and recorded. */
  let filling: Promise<void> | null = null;
  let again = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  const sleepUntilNextDue = async () => {
    clearTimeout(timer);
    if (stopping) return;
    let delay = pollIntervalMs;
    if (failures > 0) {
      delay = Math.min(pollIntervalMs * 2 ** (failures - 1), MAX_ERROR_BACKOFF_MS);
    } else {
      const next = await queue.nextDueAt().catch(() => null);
      const untilDue = next === null ? Infinity : next.getTime() - clock.nowMs();
      // Due already but not claimed: leased elsewhere or held back by the per-integration cap, which a finishing
      // attempt lifts by claiming again; either way nothing is gained by waking sooner than the poll.
      if (untilDue > 0) delay = Math.max(MIN_SLEEP_MS, Math.min(untilDue, pollIntervalMs));
    }
    if (stopping) return;
    // Passes overlap (a finished attempt claims while another pass sleeps): one timer only, the latest.
    clearTimeout(timer);
    timer = setTimeout(() => void fill(), delay);
    // The process lives for its servers, not for this timer.
    timer.unref();
  };

  const start = (delivery: ClaimedDelivery) => {
    inFlightBy.set(delivery.integrationId, (inFlightBy.get(delivery.integrationId) ?? 0) + 1);
    const run = attempt(delivery)
      .then((report) => onDelivery?.(report))
      .catch((err: unknown) => logger.error({ err, deliveryId: delivery.id }, 'webhook attempt could not be recorded'))
      .finally(() => {
        const left = (inFlightBy.get(delivery.integrationId) ?? 1) - 1;
        if (left === 0) inFlightBy.delete(delivery.integrationId);
        else inFlightBy.set(delivery.integrationId, left);
        running.delete(run);
        void fill();
      });
    running.add(run);
  };

  const claimAndStart = async (): Promise<void> => {
    try {
      do {
        again = false;
        while (!stopping && running.size < maxInFlight) {
          const full = [...inFlightBy].filter(([, count]) => count >= perIntegration).map(([id]) => id);
          const claimed = await queue.claimDue({
            now: clock.now(),
            limit: maxInFlight - running.size,
            leaseMs: DELIVERY_LEASE_MS,
            perIntegration,
            excludeIntegrations: full,
          });
          for (const delivery of claimed) start(delivery);
          if (claimed.length === 0) break;
        }
      } while (again && !stopping);
      failures = 0;
    } catch (err) {
      failures += 1;
      logger.error({ err }, 'claiming webhook deliveries failed');
    }
  };

  const fill = async (): Promise<void> => {
    if (stopping) return;
    if (filling) {
      again = true;
      return;
    }
    filling = claimAndStart();
    await filling;
    filling = null;
    await sleepUntilNextDue();
  };

  let unlisten: Promise<(() => Promise<void>) | null> = Promise.resolve(null);
  if (listen) {
    unlisten = listen(() => void fill()).catch((err: unknown) => {
      logger.error({ err }, 'cannot listen for new webhook events; polling only');
      return null;
    });
  }
  void fill();

  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await filling;
      const stopListening = await unlisten;
      await stopListening?.();
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
};
