import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryQueue,
  EncryptedSecret,
  Outbox,
  WebhookEventType,
} from '../../index.js';

/**
 * The behaviour every implementation of the outbox and the delivery queue shares, written once and run against
 * the in-memory fake and the Postgres adapter (docs/contributors/architecture.md: one contract suite per port). A case throws an
 * AssertionError when the implementation breaks the rule it is named after.
 */
export interface WebhookStoreHarness {
  outbox: Outbox;
  queue: DeliveryQueue;
  /** Forgets every garage, integration, event and delivery. */
  reset(): Promise<void>;
  createGarage(): Promise<string>;
  createIntegration(
    garageId: string,
    options: { webhookUrl: string | null; syncAppointments?: boolean },
  ): Promise<{ id: string; secret: EncryptedSecret }>;
  revokeIntegration(id: string): Promise<void>;
}

export interface WebhookStoreContractCase {
  name: string;
  run(h: WebhookStoreHarness): Promise<void>;
}

/** Past any time the store may have stamped a new delivery with (its own clock may be the database's). */
const later = (ms = 0) => new Date(Date.now() + 1_000 + ms);
const plus = (at: Date, ms: number) => new Date(at.getTime() + ms);
const ALL = 1_000;
const LEASE = 60_000;

const attemptAt = (at: Date, statusCode: number | null, error: string | null = null): DeliveryAttempt => ({
  attemptedAt: at,
  statusCode,
  error,
  durationMs: 12,
});

const claimAll = (h: WebhookStoreHarness, now = later()) => h.queue.claimDue({ now, limit: ALL, leaseMs: LEASE });

const byIntegration = (claimed: ClaimedDelivery[], integrationId: string) => {
  const found = claimed.filter((d) => d.integrationId === integrationId);
  assert.equal(found.length, 1, `one delivery to integration ${integrationId}`);
  return found[0]!;
};

const oneEvent = async (h: WebhookStoreHarness, type: WebhookEventType = 'quote.accepted') => {
  const garageId = await h.createGarage();
  const integration = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/hook', syncAppointments: true });
  await h.outbox.enqueue({ garageId, type, data: { id: randomUUID(), status: 'accepted' } });
  return { garageId, integration };
};

export const webhookStoreContract: WebhookStoreContractCase[] = [
  {
    name: 'an event goes to its audience: appointment events to syncAppointments integrations, others to every webhook URL',
    async run(h) {
      const garageId = await h.createGarage();
      const syncing = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/a', syncAppointments: true });
      const notSyncing = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/b' });
      await h.createIntegration(garageId, { webhookUrl: null, syncAppointments: true });
      const revoked = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/d', syncAppointments: true });
      await h.revokeIntegration(revoked.id);
      const otherGarage = await h.createGarage();
      await h.createIntegration(otherGarage, { webhookUrl: 'http://127.0.0.1:9/e', syncAppointments: true });

      const types: WebhookEventType[] = ['appointment.created', 'quote.accepted', 'quote.refused', 'lead.created'];
      for (const type of types) await h.outbox.enqueue({ garageId, type, data: { id: randomUUID() } });

      const claimed = await claimAll(h);
      const audience = (type: WebhookEventType) =>
        claimed.filter((d) => d.event.type === type).map((d) => d.integrationId).sort();
      assert.deepEqual(audience('appointment.created'), [syncing.id]);
      for (const type of types.slice(1)) assert.deepEqual(audience(type), [syncing.id, notSyncing.id].sort(), type);
      assert.equal(claimed.length, 7);
    },
  },
  {
    name: 'a claimed delivery carries its event, the URL, the secret and no attempts yet',
    async run(h) {
      const garageId = await h.createGarage();
      const integration = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/hook?x=1' });
      const data = { id: randomUUID(), name: 'Jeanne', nested: { list: [1, 'two', null], flag: false }, text: 'é"\n' };
      const before = Date.now() - 5_000;
      await h.outbox.enqueue({ garageId, type: 'lead.created', data });
      const [delivery, ...rest] = await claimAll(h);
      assert.equal(rest.length, 0);
      assert.ok(delivery);
      assert.equal(delivery.integrationId, integration.id);
      assert.equal(delivery.url, 'http://127.0.0.1:9/hook?x=1');
      assert.equal(delivery.attempts, 0);
      assert.deepEqual(delivery.secret, integration.secret);
      assert.equal(delivery.event.type, 'lead.created');
      assert.deepEqual(delivery.event.data, data);
      assert.ok(delivery.event.occurredAt instanceof Date);
      assert.ok(Math.abs(delivery.event.occurredAt.getTime() - before) < 60_000, 'occurredAt is the write time');
    },
  },
  {
    name: 'a leased delivery is not claimed again until its lease ends, then it is',
    async run(h) {
      await oneEvent(h);
      const t0 = later();
      const [first] = await h.queue.claimDue({ now: t0, limit: 10, leaseMs: 1_000 });
      assert.ok(first);
      assert.equal(first.leaseUntil.getTime(), t0.getTime() + 1_000);
      assert.equal((await h.queue.claimDue({ now: t0, limit: 10, leaseMs: 1_000 })).length, 0);
      assert.equal((await h.queue.claimDue({ now: plus(t0, 999), limit: 10, leaseMs: 1_000 })).length, 0);
      const [again] = await h.queue.claimDue({ now: plus(t0, 1_000), limit: 10, leaseMs: 1_000 });
      assert.equal(again?.id, first.id, 'the expired lease is claimable');
      assert.equal(again?.event.id, first.event.id);
    },
  },
  {
    name: 'claimDue returns at most limit deliveries, the longest due first',
    async run(h) {
      const garageId = await h.createGarage();
      await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
      for (let i = 0; i < 5; i++) await h.outbox.enqueue({ garageId, type: 'lead.created', data: { i } });
      const t0 = later();
      const firstBatch = await h.queue.claimDue({ now: t0, limit: 2, leaseMs: LEASE });
      assert.equal(firstBatch.length, 2);
      // Reschedule one of them far out: the three untouched ones now come before it.
      assert.equal(await h.queue.complete(firstBatch[0]!, attemptAt(t0, 500), { status: 'pending', nextAttemptAt: plus(t0, 10) }), true);
      const rest = await h.queue.claimDue({ now: plus(t0, 10), limit: 3, leaseMs: LEASE });
      assert.equal(rest.length, 3);
      assert.ok(!rest.some((d) => d.id === firstBatch[0]!.id), 'the most recently failed waits behind older ones');
      const last = await h.queue.claimDue({ now: plus(t0, 10), limit: 3, leaseMs: LEASE });
      assert.deepEqual(last.map((d) => d.id), [firstBatch[0]!.id]);
    },
  },
  {
    name: 'only the holder of the current lease records an outcome; every attempt is logged',
    async run(h) {
      const { integration } = await oneEvent(h);
      const t0 = later();
      const [stale] = await h.queue.claimDue({ now: t0, limit: 1, leaseMs: 1_000 });
      const [current] = await h.queue.claimDue({ now: plus(t0, 1_000), limit: 1, leaseMs: 1_000 });
      assert.ok(stale && current);
      assert.equal(await h.queue.complete(stale, attemptAt(plus(t0, 1_500), 200), { status: 'succeeded' }), false);
      assert.equal((await h.queue.listByIntegration(integration.id, 10))[0]?.status, 'pending');
      assert.equal(await h.queue.complete(current, attemptAt(plus(t0, 1_600), 200), { status: 'succeeded' }), true);
      const [view] = await h.queue.listByIntegration(integration.id, 10);
      assert.equal(view?.status, 'succeeded');
      assert.equal(view?.attemptCount, 1);
      assert.equal(view?.attempts.length, 2, 'the late attempt happened and is in the log');
    },
  },
  {
    name: 'a rescheduled delivery is due again at nextAttemptAt, not before, with its attempt counted',
    async run(h) {
      await oneEvent(h);
      const t0 = later();
      const [claim] = await claimAll(h, t0);
      assert.ok(claim);
      const next = plus(t0, 5_000);
      assert.equal(await h.queue.complete(claim, attemptAt(t0, 503), { status: 'pending', nextAttemptAt: next }), true);
      assert.equal((await claimAll(h, plus(t0, 4_999))).length, 0);
      const [retry] = await claimAll(h, next);
      assert.equal(retry?.id, claim.id);
      assert.equal(retry?.attempts, 1);
      assert.equal(retry?.event.id, claim.event.id);
    },
  },
  {
    name: 'succeeded and failed deliveries are never claimed again',
    async run(h) {
      const garageId = await h.createGarage();
      await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
      await h.outbox.enqueue({ garageId, type: 'lead.created', data: { n: 1 } });
      await h.outbox.enqueue({ garageId, type: 'lead.created', data: { n: 2 } });
      const t0 = later();
      const [a, b] = await claimAll(h, t0);
      assert.ok(a && b);
      await h.queue.complete(a, attemptAt(t0, 204), { status: 'succeeded' });
      await h.queue.complete(b, attemptAt(t0, 500), { status: 'failed' });
      assert.equal((await claimAll(h, plus(t0, 365 * 24 * 3_600_000))).length, 0);
    },
  },
  {
    name: '410 ends the delivery and every pending delivery of that integration to that URL, and only those',
    async run(h) {
      const garageId = await h.createGarage();
      const gone = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/shared' });
      const sameUrl = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/shared' });
      for (let i = 0; i < 3; i++) await h.outbox.enqueue({ garageId, type: 'lead.created', data: { i } });
      const t0 = later();
      const claimed = await claimAll(h, t0);
      const [first, second] = claimed.filter((d) => d.integrationId === gone.id);
      const other = claimed.find((d) => d.integrationId === sameUrl.id);
      assert.ok(first && second && other);
      assert.equal(await h.queue.complete(first, attemptAt(t0, 410), { status: 'gone' }), true);
      assert.equal(
        await h.queue.complete(second, attemptAt(t0, 200), { status: 'succeeded' }),
        false,
        'an in-flight delivery to the gone URL cannot revive it',
      );
      assert.equal(await h.queue.complete(other, attemptAt(t0, 200), { status: 'succeeded' }), true);
      const views = await h.queue.listByIntegration(gone.id, 10);
      assert.deepEqual(views.map((v) => v.status), ['gone', 'gone', 'gone']);
      assert.ok(views.every((v) => v.nextAttemptAt === null));
      const survivors = await claimAll(h, plus(t0, LEASE));
      assert.deepEqual(survivors.map((d) => d.integrationId).sort(), [sameUrl.id, sameUrl.id]);
    },
  },
  {
    name: 'replay makes every delivery of the event due now with a fresh schedule; unknown events are null',
    async run(h) {
      const garageId = await h.createGarage();
      const a = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/a' });
      const b = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/b' });
      await h.outbox.enqueue({ garageId, type: 'quote.refused', data: { id: 'q' } });
      const t0 = later();
      const claimed = await claimAll(h, t0);
      await h.queue.complete(byIntegration(claimed, a.id), attemptAt(t0, 200), { status: 'succeeded' });
      await h.queue.complete(byIntegration(claimed, b.id), attemptAt(t0, 500), { status: 'failed' });
      const eventId = claimed[0]!.event.id;

      const t1 = plus(t0, 60_000);
      assert.equal(await h.queue.replayEvent(eventId, t1), 2);
      const again = await claimAll(h, t1);
      assert.deepEqual(again.map((d) => d.integrationId).sort(), [a.id, b.id].sort());
      assert.ok(again.every((d) => d.attempts === 0 && d.event.id === eventId));

      assert.equal(await h.queue.replayEvent(eventId, t1), 2, 'deliveries in flight are counted');
      assert.equal((await claimAll(h, t1)).length, 0, 'but keep their lease: nobody sends them twice at once');
      assert.equal(await h.queue.replayEvent(randomUUID(), t1), null);
      assert.equal(await h.queue.replayEvent('not-a-uuid', t1), null);
    },
  },
  {
    name: 'deliveries of a revoked integration are neither claimed nor replayed',
    async run(h) {
      const { integration } = await oneEvent(h);
      const [claim] = await claimAll(h);
      assert.ok(claim);
      await h.revokeIntegration(integration.id);
      assert.equal((await claimAll(h, plus(later(), LEASE))).length, 0);
      assert.equal(await h.queue.replayEvent(claim.event.id, plus(later(), LEASE)), 0);
    },
  },
  {
    name: 'an integration lists its deliveries newest first, each with its attempts in order',
    async run(h) {
      const garageId = await h.createGarage();
      const integration = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
      const other = await h.createIntegration(garageId, { webhookUrl: 'http://127.0.0.1:9/other' });
      await h.outbox.enqueue({ garageId, type: 'lead.created', data: { n: 1 } });
      // Events are stamped by the store's own clock (the database's, to the millisecond): the next in a later one.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await h.outbox.enqueue({ garageId, type: 'quote.accepted', data: { n: 2 } });
      const t0 = later();
      const mine = (await claimAll(h, t0)).filter((d) => d.integrationId === integration.id);
      const lead = mine.find((d) => d.event.type === 'lead.created');
      assert.ok(lead);
      const retryAt = plus(t0, 100);
      await h.queue.complete(lead, attemptAt(t0, null, 'timeout after 10000 ms'), { status: 'pending', nextAttemptAt: retryAt });
      const [retry] = (await claimAll(h, retryAt)).filter((d) => d.id === lead.id);
      assert.ok(retry);
      await h.queue.complete(retry, attemptAt(plus(retryAt, 1), 204), { status: 'succeeded' });

      const views = await h.queue.listByIntegration(integration.id, 10);
      assert.deepEqual(views.map((v) => v.type), ['quote.accepted', 'lead.created']);
      const [newest, oldest] = views;
      assert.ok(newest && oldest);
      assert.ok(newest.createdAt >= oldest.createdAt);
      assert.equal(newest.status, 'pending');
      assert.equal(newest.attemptCount, 0);
      assert.ok(newest.nextAttemptAt instanceof Date);
      assert.deepEqual(newest.attempts, []);
      assert.equal(oldest.id, lead.id);
      assert.equal(oldest.eventId, lead.event.id);
      assert.equal(oldest.url, 'http://127.0.0.1:9/hook');
      assert.equal(oldest.status, 'succeeded');
      assert.equal(oldest.attemptCount, 2);
      assert.equal(oldest.nextAttemptAt, null);
      assert.deepEqual(oldest.attempts, [
        attemptAt(t0, null, 'timeout after 10000 ms'),
        attemptAt(plus(retryAt, 1), 204),
      ]);
      assert.equal((await h.queue.listByIntegration(integration.id, 1)).length, 1);
      assert.equal((await h.queue.listByIntegration(other.id, 10)).length, 2);
      assert.deepEqual(await h.queue.listByIntegration(randomUUID(), 10), []);
    },
  },
];
