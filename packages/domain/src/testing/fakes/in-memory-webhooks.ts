import { randomUUID } from 'node:crypto';
import {
  audienceOf,
  type ClaimedDelivery,
  type Clock,
  type DeliveryAttempt,
  type DeliveryQueue,
  type DeliveryStatus,
  type IntegrationRepository,
  type Outbox,
  type WebhookEvent,
} from '../../index.js';

interface StoredDelivery {
  id: string;
  eventId: string;
  integrationId: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
  createdAt: Date;
  log: DeliveryAttempt[];
}

export interface InMemoryWebhooks {
  outbox: Outbox;
  queue: DeliveryQueue;
  /** Every event written so far, oldest first. */
  events(): WebhookEvent[];
}

/**
 * The outbox and the delivery queue over plain arrays, for fast tests of the use-cases and of transports. It keeps
 * the same rules as the Postgres adapter (the shared contract suite checks both), except atomicity with other writes.
 */
export const makeInMemoryWebhooks = ({
  integrations,
  clock,
}: {
  integrations: Pick<IntegrationRepository, 'listWebhookTargets' | 'getWebhookSecret' | 'findById'>;
  clock: Clock;
}): InMemoryWebhooks => {
  const events = new Map<string, WebhookEvent>();
  const deliveries: StoredDelivery[] = [];

  const isRevoked = async (integrationId: string) => (await integrations.findById(integrationId))?.revokedAt != null;
  const isDue = (d: StoredDelivery, now: Date) =>
    d.status === 'pending' && d.nextAttemptAt <= now && (d.lockedUntil === null || d.lockedUntil <= now);

  const outbox: Outbox = {
    async enqueue({ garageId, type, data }) {
      const toggle = audienceOf(type);
      const targets = await integrations.listWebhookTargets(garageId, toggle ?? undefined);
      const now = clock.now();
      // Stored as JSON, as the database stores it: what a receiver gets is what survives serialisation.
      const event: WebhookEvent = { id: randomUUID(), type, occurredAt: now, livemode: true, data: JSON.parse(JSON.stringify(data)) };
      events.set(event.id, event);
      for (const target of targets) {
        if (target.webhookUrl === null) continue;
        deliveries.push({
          id: randomUUID(),
          eventId: event.id,
          integrationId: target.id,
          url: target.webhookUrl,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          lockedUntil: null,
          createdAt: now,
          log: [],
        });
      }
    },
  };

  const queue: DeliveryQueue = {
    async claimDue({ now, limit, leaseMs, perIntegration = Infinity, excludeIntegrations = [] }) {
      const candidates = deliveries.filter((d) => isDue(d, now) && !excludeIntegrations.includes(d.integrationId));
      const revoked = new Set<string>();
      for (const id of new Set(candidates.map((d) => d.integrationId))) {
        if (await isRevoked(id)) revoked.add(id);
      }
      // Chosen and leased without an await in between: that is what makes two concurrent claims disjoint here.
      const perIntegrationCount = new Map<string, number>();
      const chosen = candidates
        .filter((d) => isDue(d, now) && !revoked.has(d.integrationId))
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime())
        .filter((d) => {
          const count = (perIntegrationCount.get(d.integrationId) ?? 0) + 1;
          perIntegrationCount.set(d.integrationId, count);
          return count <= perIntegration;
        })
        .slice(0, limit);
      const leaseUntil = new Date(now.getTime() + leaseMs);
      for (const d of chosen) d.lockedUntil = leaseUntil;
      const claimed: ClaimedDelivery[] = [];
      for (const d of chosen) {
        const event = events.get(d.eventId);
        const secret = await integrations.getWebhookSecret(d.integrationId);
        const integration = await integrations.findById(d.integrationId);
        if (!event || !secret || !integration) throw new Error(`delivery ${d.id} lost its event or its integration`);
        claimed.push({
          id: d.id,
          integrationId: d.integrationId,
          url: d.url,
          attempts: d.attempts,
          leaseUntil,
          event: structuredClone(event),
          apiVersion: integration.apiVersion,
          secret,
          previousSecret: null,
        });
      }
      return claimed;
    },

    async complete(claim, attempt, outcome) {
      const d = deliveries.find((x) => x.id === claim.id);
      if (!d) return false;
      d.log.push({ ...attempt });
      if (d.status !== 'pending' || d.lockedUntil?.getTime() !== claim.leaseUntil.getTime()) return false;
      d.attempts += 1;
      d.lockedUntil = null;
      d.status = outcome.status;
      if (outcome.status === 'pending') d.nextAttemptAt = outcome.nextAttemptAt;
      if (outcome.status === 'gone') {
        for (const other of deliveries) {
          if (other.integrationId === d.integrationId && other.url === d.url && other.status === 'pending') {
            other.status = 'gone';
          }
        }
      }
      return true;
    },

    async replayEvent(eventId, now) {
      if (!events.has(eventId)) return null;
      let count = 0;
      for (const d of deliveries.filter((x) => x.eventId === eventId)) {
        if (await isRevoked(d.integrationId)) continue;
        d.status = 'pending';
        d.attempts = 0;
        d.nextAttemptAt = now;
        count += 1;
      }
      return count;
    },

    async retryDelivery(integrationId, deliveryId, now) {
      const d = deliveries.find((x) => x.id === deliveryId && x.integrationId === integrationId);
      if (!d) return 'not_found';
      const url = (await integrations.findById(integrationId))?.webhookUrl ?? null;
      if (url === null) return 'no_url';
      d.status = 'pending';
      d.url = url;
      d.nextAttemptAt = now;
      return 'queued';
    },

    async nextDueAt() {
      const pending = deliveries.filter((d) => d.status === 'pending').map((d) => d.nextAttemptAt.getTime());
      return pending.length === 0 ? null : new Date(Math.min(...pending));
    },

    async backlog() {
      const pending = deliveries.filter((d) => d.status === 'pending');
      const oldest = Math.min(...pending.map((d) => d.createdAt.getTime()));
      return { pending: pending.length, oldestPendingAgeSeconds: pending.length === 0 ? 0 : (clock.nowMs() - oldest) / 1000 };
    },

    async listByIntegration(integrationId, limit) {
      return deliveries
        .filter((d) => d.integrationId === integrationId)
        .reverse()
        .slice(0, limit)
        .map((d) => ({
          id: d.id,
          eventId: d.eventId,
          type: events.get(d.eventId)!.type,
          url: d.url,
          status: d.status,
          attemptCount: d.attempts,
          nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
          createdAt: d.createdAt,
          attempts: d.log.map((a) => ({ ...a })),
        }));
    },
  };

  return { outbox, queue, events: () => [...events.values()] };
};
