import type { DeliveryBacklog, DeliveryReport } from '@garage/domain';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface WebhookMetrics {
  /** Pass as `onDelivery`: counts the attempt by result and observes the first attempt's lag. */
  record(report: DeliveryReport): void;
}

/**
 * Results as the delivery records them: `succeeded`, `pending` (failed, another attempt is scheduled), `failed` (the
 * last retry failed), `gone` (410); `superseded` when the attempt ended after its lease and another worker owns it.
 */
const resultOf = (report: DeliveryReport): string => (report.recorded ? report.outcome.status : 'superseded');

/**
 * The webhook metrics of docs/reference/contract.md §6, the same in the API (when it delivers) and in the worker. The backlog gauges
 * are read from the database at scrape time, so every process reports the shared backlog.
 */
export const registerWebhookMetrics = (
  registry: Registry,
  { backlog }: { backlog: () => Promise<DeliveryBacklog> },
): WebhookMetrics => {
  let read: Promise<DeliveryBacklog> | null = null;
  // One query per scrape for both gauges.
  const current = () => {
    read ??= backlog().finally(() => setTimeout(() => (read = null), 0));
    return read;
  };
  new Gauge({
    name: 'webhook_outbox_pending',
    help: 'Webhook deliveries waiting for an attempt or a retry, in the whole system.',
    registers: [registry],
    async collect() {
      this.set((await current()).pending);
    },
  });
  new Gauge({
    name: 'webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest pending webhook delivery (0 when none): a growing value means receivers or workers fall behind.',
    registers: [registry],
    async collect() {
      this.set((await current()).oldestPendingAgeSeconds);
    },
  });
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this process, by result (succeeded, pending, failed, gone, superseded).',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'webhook_delivery_lag_seconds',
    help: 'Time from the commit that wrote an event to the start of its first delivery attempt.',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return {
    record(report) {
      deliveries.inc({ result: resultOf(report) });
      if (report.attemptNumber === 1) {
        lag.observe(Math.max(0, report.attempt.attemptedAt.getTime() - report.eventOccurredAt.getTime()) / 1000);
      }
    },
  };
};
