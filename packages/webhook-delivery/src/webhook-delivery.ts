import {
  makeAttemptDelivery,
  makeDeliverDueWebhooks,
  makeSecretBox,
  systemClock,
  type Clock,
  type DeliveryReport,
  type EncryptionKey,
  type RetrySchedule,
  type WebhookSender,
} from '@garage/domain';
import { webhookBodyRenderer, type VersionRegistry } from '@garage/versions';
import { makeDeliveryQueue, OUTBOX_CHANNEL, type DatabaseHandle, type Db } from '@garage/postgres';
import { startDeliveryEngine, type DeliveryEngine } from './delivery-engine.js';
import { makeHttpSender } from './http-sender.js';
import type { DeliveryLogger } from './logger.js';
import { tracedAttempt } from './traced-attempt.js';

export interface WebhookDeliveryOptions {
  db: Db;
  /** Where to LISTEN for the outbox's notifications; without it the engine polls. */
  listen?: DatabaseHandle['listen'];
  /** The active key first, then former ones (as `makeSecretBox` expects). */
  encryptionKeys: EncryptionKey[];
  /** Delays between attempts in ms (`parseRetrySchedule(WEBHOOK_RETRY_SCHEDULE)`). */
  schedule: RetrySchedule;
  /** The API versions the process serves: each body is rendered at its receiver's version through them. */
  versions: VersionRegistry;
  logger: DeliveryLogger;
  batchSize?: number;
  /** `WEBHOOK_ALLOWED_NETWORKS`, for the default sender: otherwise refused destinations to allow. */
  allowedNetworks?: readonly string[];
  sender?: WebhookSender;
  clock?: Clock;
  /** Called after each attempt is logged (the API counts outcomes in its metrics). */
  onDelivery?: (report: DeliveryReport) => void;
}

export interface WebhookDelivery {
  /** One pass: claims what is due, sends it, records it; resolves to the number of deliveries attempted. */
  deliverDue(): Promise<number>;
  /** Delivers until stopped (see `startDeliveryEngine`). */
  start(options?: { pollIntervalMs?: number; maxInFlight?: number; perIntegration?: number }): DeliveryEngine;
}

/**
 * A webhook URL's path and query are the receiver's secret for many services (Slack, Discord and Zapier put their
 * token there): logs name the origin only, beside the integration id, as the spans do.
 */
const loggableOrigin = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
};

const logDelivery = (logger: DeliveryLogger, report: DeliveryReport): void => {
  const { outcome, attempt } = report;
  const fields = {
    eventId: report.eventId,
    deliveryId: report.deliveryId,
    integrationId: report.integrationId,
    origin: loggableOrigin(report.url),
    attempt: report.attemptNumber,
    statusCode: attempt.statusCode,
    error: attempt.error,
    durationMs: attempt.durationMs,
    ...(outcome.status === 'pending' ? { nextAttemptAt: outcome.nextAttemptAt.toISOString() } : {}),
  };
  if (!report.recorded) logger.warn(fields, 'webhook attempt finished after its lease ended; another worker owns the delivery');
  else if (outcome.status === 'succeeded') logger.info(fields, 'webhook delivered');
  else if (outcome.status === 'pending') logger.warn(fields, 'webhook attempt failed; will retry');
  else if (outcome.status === 'gone') logger.warn(fields, 'webhook endpoint answered 410 Gone; delivery to this URL stopped');
  else logger.error(fields, 'webhook delivery failed after the last retry');
};

/**
 * Webhook delivery wired on Postgres (or PGlite): the queue, the HTTP sender, the secrets and the use-case. The
 * worker process runs it; the API runs the same thing in-process unless dedicated workers are deployed.
 */
export const makeWebhookDelivery = ({
  db,
  listen,
  encryptionKeys,
  schedule,
  versions,
  logger,
  batchSize,
  allowedNetworks = [],
  sender = makeHttpSender({ allowedNetworks }),
  clock = systemClock,
  onDelivery,
}: WebhookDeliveryOptions): WebhookDelivery => {
  const queue = makeDeliveryQueue(db);
  const deps = { queue, secrets: makeSecretBox(encryptionKeys), sender, clock, schedule, renderBody: webhookBodyRenderer(versions) };
  const report = (delivery: DeliveryReport) => {
    logDelivery(logger, delivery);
    onDelivery?.(delivery);
  };
  const attempt = makeAttemptDelivery(deps);
  return {
    deliverDue: makeDeliverDueWebhooks({ ...deps, batchSize, onDelivery: report }),
    start: (options = {}) =>
      startDeliveryEngine({
        queue,
        // Logged inside the attempt's span, so that the line carries its trace.
        attempt: tracedAttempt(async (delivery) => {
          const result = await attempt(delivery);
          logDelivery(logger, result);
          return result;
        }),
        clock,
        logger,
        onDelivery,
        ...(listen ? { listen: (onWake: () => void) => listen(OUTBOX_CHANNEL, onWake) } : {}),
        ...options,
      }),
  };
};
