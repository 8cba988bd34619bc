import type { Clock } from '../kernel/clock.port.js';
import type { SecretBox } from '../kernel/secret-box.js';
import type { ClaimedDelivery, DeliveryAttempt, DeliveryOutcome, DeliveryQueue } from './delivery-queue.port.js';
import { retryDelay, type RetrySchedule } from './retry-schedule.js';
import { signedWebhookRequest, signingSecrets, WEBHOOK_TIMEOUT_MS } from './signed-request.js';
import type { RenderWebhookBody } from './webhook-event.js';
import type { WebhookResponse, WebhookSender } from './webhook-sender.port.js';

/**
 * How long a claim is exclusive. Longer than the HTTP timeout, so that a live worker records its outcome before the
 * lease ends; short enough that a crashed worker's deliveries are picked up again within seconds.
 */
export const DELIVERY_LEASE_MS = WEBHOOK_TIMEOUT_MS + 5_000;

const MAX_ERROR_LENGTH = 500;

/** What happened to one delivery, for the caller's log. */
export interface DeliveryReport {
  deliveryId: string;
  eventId: string;
  integrationId: string;
  url: string;
  /** When the event was written: the first attempt's lag is `attempt.attemptedAt - eventOccurredAt`. */
  eventOccurredAt: Date;
  attempt: DeliveryAttempt;
  attemptNumber: number;
  outcome: DeliveryOutcome;
  /** False when another worker took the delivery over meanwhile (its lease ended first). */
  recorded: boolean;
}

export interface DeliverDueWebhooksDeps {
  queue: Pick<DeliveryQueue, 'claimDue' | 'complete'>;
  /** Decrypts the integrations' webhook secrets (`whsec_…`). */
  secrets: Pick<SecretBox, 'decrypt'>;
  sender: WebhookSender;
  clock: Clock;
  schedule: RetrySchedule;
  /** The body of an event at the receiving integration's version. */
  renderBody: RenderWebhookBody;
  /** Deliveries claimed and sent concurrently per call. */
  batchSize?: number;
  onDelivery?: (report: DeliveryReport) => void;
}

/** 2xx delivered; 410 gone for good; anything else is retried until the schedule runs out. */
export const outcomeOf = (
  response: WebhookResponse,
  attemptNumber: number,
  schedule: RetrySchedule,
  now: Date,
): DeliveryOutcome => {
  if ('statusCode' in response) {
    if (response.statusCode >= 200 && response.statusCode < 300) return { status: 'succeeded' };
    if (response.statusCode === 410) return { status: 'gone' };
  }
  const delay = retryDelay(schedule, attemptNumber);
  return delay === null ? { status: 'failed' } : { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay) };
};

/**
 * One pass of webhook delivery: claims the due deliveries, signs and sends them concurrently, records every attempt.
 * Resolves to the number of deliveries attempted (0 when nothing was due), so a loop knows whether to drain on.
 */
export type AttemptDeliveryDeps = Pick<DeliverDueWebhooksDeps, 'secrets' | 'sender' | 'clock' | 'schedule' | 'renderBody'> & {
  queue: Pick<DeliveryQueue, 'complete'>;
};

/**
 * One attempt of a claimed delivery: signs it (with both secrets during a rotation's overlap), sends it, and
 * records the attempt and its outcome. Never throws for the receiver's failures; throws only when the outcome could
 * not be recorded (database gone), in which case the lease ends and the delivery is attempted again.
 */
export const makeAttemptDelivery =
  ({ queue, secrets, sender, clock, schedule, renderBody }: AttemptDeliveryDeps) =>
  async (delivery: ClaimedDelivery): Promise<DeliveryReport> => {
    const attemptedAt = clock.now();
    let response: WebhookResponse;
    try {
      const plaintexts = signingSecrets(secrets, delivery.integrationId, delivery.secret, delivery.previousSecret);
      response = await sender.send(signedWebhookRequest({ id: delivery.event.id, body: renderBody(delivery.event, delivery.apiVersion) }, delivery.url, plaintexts, attemptedAt));
    } catch (err) {
      // A secret that no configured key decrypts, or a sender bug: recorded like any failed attempt, so that it
      // shows in the delivery log and is retried once an operator fixes the keys.
      response = { error: err instanceof Error ? err.message : String(err) };
    }
    const finishedAt = clock.now();
    const attemptNumber = delivery.attempts + 1;
    const record: DeliveryAttempt = {
      attemptedAt,
      statusCode: 'statusCode' in response ? response.statusCode : null,
      error: 'error' in response ? response.error.slice(0, MAX_ERROR_LENGTH) : null,
      durationMs: Math.max(0, finishedAt.getTime() - attemptedAt.getTime()),
    };
    const outcome = outcomeOf(response, attemptNumber, schedule, finishedAt);
    const recorded = await queue.complete(delivery, record, outcome);
    return {
      deliveryId: delivery.id,
      eventId: delivery.event.id,
      integrationId: delivery.integrationId,
      url: delivery.url,
      eventOccurredAt: delivery.event.occurredAt,
      attempt: record,
      attemptNumber,
      outcome,
      recorded,
    };
  };

/**
 * One pass of webhook delivery: claims the due deliveries, signs and sends them concurrently, records every attempt.
 * Resolves to the number of deliveries attempted (0 when nothing was due). The delivery engine attempts deliveries
 * one by one as they come instead; this pass is for tests and one-off runs.
 */
export const makeDeliverDueWebhooks = ({ queue, batchSize = 10, onDelivery, ...deps }: DeliverDueWebhooksDeps): (() => Promise<number>) => {
  const attempt = makeAttemptDelivery({ queue, ...deps });
  return async () => {
    const claimed = await queue.claimDue({ now: deps.clock.now(), limit: batchSize, leaseMs: DELIVERY_LEASE_MS });
    // Every delivery is settled before returning, so a caller that awaits this call never leaves a send behind;
    // one delivery's failure to record (database gone) does not abandon the others.
    const results = await Promise.allSettled(claimed.map(attempt));
    for (const result of results) {
      if (result.status === 'fulfilled') onDelivery?.(result.value);
    }
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    return claimed.length;
  };
};
