import type { EncryptedSecret } from '../integrations/integration.js';
import type { WebhookEvent } from './webhook-event.js';

/** `cancelled`: the integration was revoked or lost its webhook URL before the delivery ended (docs/reference/contract.md §5). */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'gone', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A delivery this worker holds a lease on: nobody else sends it until the lease ends. */
export interface ClaimedDelivery {
  id: string;
  integrationId: string;
  /** The integration's webhook URL when the event was written. */
  url: string;
  /** Attempts made before this one. */
  attempts: number;
  /** The end of this claim's lease; also its fencing token (see `complete`). */
  leaseUntil: Date;
  event: WebhookEvent;
  /**
   * Where the event was written, as a W3C `traceparent`, for the attempt's trace to continue it (opaque here); null or
   * absent when tracing was off.
   */
  traceParent?: string | null;
  /** The integration's API version at claim time: the body is rendered at it (docs/reference/contract.md §8). */
  apiVersion: string;
  secret: EncryptedSecret;
  /** The secret replaced by a rotation whose overlap has not ended yet: deliveries carry both signatures. */
  previousSecret: EncryptedSecret | null;
}

export interface DeliveryAttempt {
  attemptedAt: Date;
  /** The response status, or null when there was none. */
  statusCode: number | null;
  /** Why there was no usable response (timeout, connection refused…), else null. */
  error: string | null;
  durationMs: number;
}

export type DeliveryOutcome =
  | { status: 'succeeded' }
  | { status: 'pending'; nextAttemptAt: Date }
  | { status: 'failed' }
  | { status: 'gone' };

/** A delivery as an operator inspects it (`webhook deliveries --integration ID`). */
export interface DeliveryView {
  id: string;
  eventId: string;
  type: WebhookEvent['type'];
  url: string;
  status: DeliveryStatus;
  attemptCount: number;
  /** When the next attempt is due; null once the delivery has ended. */
  nextAttemptAt: Date | null;
  createdAt: Date;
  /** Oldest first. */
  attempts: DeliveryAttempt[];
}

export interface ClaimRequest {
  now: Date;
  limit: number;
  leaseMs: number;
  /** At most this many deliveries of one integration in this claim, so one slow receiver cannot take every slot. */
  perIntegration?: number;
  /** Integrations whose deliveries this claim skips (the caller already has enough of theirs in flight). */
  excludeIntegrations?: readonly string[];
}

/** What an operator watches (docs/reference/contract.md §6 metrics). */
export interface DeliveryBacklog {
  pending: number;
  /** Age of the oldest pending delivery, 0 when there is none. */
  oldestPendingAgeSeconds: number;
}

/**
 * The deliveries written by the outbox, one per (event, integration). Claiming takes a lease instead of holding a
 * transaction open during the HTTP call: concurrent workers never claim the same delivery, and a worker that dies
 * mid-send only delays it until its lease ends.
 */
export interface DeliveryQueue {
  /**
   * Leases up to `limit` pending deliveries due at `now` whose lease is free or over, until `now + leaseMs`.
   * Deliveries of revoked integrations are not claimed.
   */
  claimDue(request: ClaimRequest): Promise<ClaimedDelivery[]>;
  /**
   * Records the attempt, then applies the outcome if the claim still holds the lease (same `leaseUntil`, still
   * pending); returns false when it no longer does, in which case the attempt is recorded and nothing else changes.
   * `gone` also ends every other pending delivery of the same integration to the same URL: 410 means the endpoint
   * is not coming back, so the backlog behind it is not attempted.
   */
  complete(delivery: ClaimedDelivery, attempt: DeliveryAttempt, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * Makes every delivery of the event (revoked integrations excepted) pending again, due at `now`, with a fresh
   * retry schedule. A delivery being sent right now keeps its lease. Null when the event does not exist, else how
   * many deliveries were re-enqueued.
   */
  replayEvent(eventId: string, now: Date): Promise<number | null>;
  /**
   * Queues one more attempt of the integration's delivery now, whatever its status, to the integration's current
   * webhook URL, keeping its attempt count (a failed delivery gets exactly one more try). `not_found` when the
   * delivery is not the integration's; `no_url` when the integration has no webhook URL.
   */
  retryDelivery(integrationId: string, deliveryId: string, now: Date): Promise<'queued' | 'not_found' | 'no_url'>;
  /** When the earliest pending delivery is due (leased ones included); null when nothing is pending. */
  nextDueAt(): Promise<Date | null>;
  backlog(): Promise<DeliveryBacklog>;
  /** The integration's deliveries, newest first, with their attempts. */
  listByIntegration(integrationId: string, limit: number): Promise<DeliveryView[]>;
}
