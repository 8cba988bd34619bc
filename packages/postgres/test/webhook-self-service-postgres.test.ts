import { randomUUID } from 'node:crypto';
import t from 'tap';
import pg from 'pg';
import { sql } from 'kysely';
import { createTestDatabase, insertGarage, insertIntegration } from '@garage/postgres/testing';
import { makeRepositories } from '../src/repositories/index.js';
import { makeDeliveryQueue, makeOutbox, makeWebhookFeed, OUTBOX_CHANNEL } from '../src/webhooks/index.js';

const later = () => new Date(Date.now() + 1_000);
const ALL = { limit: 100, after: null, status: null, type: null } as const;

t.test('webhook self-service on real Postgres', async (t) => {
  const database = await createTestDatabase('pgselfservice');
  t.teardown(database.drop);
  const { db } = database.handle;
  const repos = makeRepositories(db);
  const queue = makeDeliveryQueue(db);
  const feed = makeWebhookFeed(db);
  const statuses = async (integrationId: string) =>
    (await feed.listDeliveries({ integrationId, ...ALL })).map((d) => d.status);

  t.test('revoking an integration cancels its pending deliveries, and a late outcome is not applied', async (t) => {
    const garageId = await insertGarage(db);
    const integration = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
    await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: { id: 'l1' } });
    await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: { id: 'l2' } });
    const [inFlight] = await queue.claimDue({ now: later(), limit: 1, leaseMs: 60_000 });
    await repos.integrations.revoke(integration.id, new Date());
    t.same(await statuses(integration.id), ['cancelled', 'cancelled']);
    const applied = await queue.complete(inFlight!, { attemptedAt: new Date(), statusCode: 500, error: null, durationMs: 3 }, {
      status: 'pending',
      nextAttemptAt: later(),
    });
    t.equal(applied, false, 'the attempt in flight when the revocation came is recorded, its outcome is not');
    t.same(await statuses(integration.id), ['cancelled', 'cancelled']);
  });

  t.test('a new webhook URL takes the pending deliveries with it; removing it cancels them', async (t) => {
    const garageId = await insertGarage(db);
    const integration = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/old' });
    await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: { id: 'l1' } });
    await repos.integrations.update(integration.id, { webhookUrl: 'http://127.0.0.1:9/new' });
    const claimed = (await queue.claimDue({ now: later(), limit: 100, leaseMs: 1 })).filter((d) => d.integrationId === integration.id);
    t.same(claimed.map((d) => d.url), ['http://127.0.0.1:9/new']);
    await repos.integrations.update(integration.id, { webhookUrl: null });
    t.same(await statuses(integration.id), ['cancelled']);
  });

  t.test('retry queues one more attempt of a delivery of this integration only, keeping its attempts', async (t) => {
    const garageId = await insertGarage(db);
    const integration = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
    const other = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/other' });
    await makeOutbox(db).enqueue({ garageId, type: 'quote.accepted', data: { id: 'q1' } });
    const [claimed] = (await queue.claimDue({ now: later(), limit: 100, leaseMs: 60_000 })).filter((d) => d.integrationId === integration.id);
    await queue.complete(claimed!, { attemptedAt: new Date(), statusCode: 500, error: null, durationMs: 3 }, { status: 'failed' });
    const [failed] = await feed.listDeliveries({ integrationId: integration.id, ...ALL });
    t.match(failed, { status: 'failed', attemptCount: 1, lastResponseStatus: 500, lastAttemptAt: Date, nextAttemptAt: null });

    t.equal(await queue.retryDelivery(other.id, failed!.id, new Date()), 'not_found', "another integration's delivery");
    t.equal(await queue.retryDelivery(integration.id, randomUUID(), new Date()), 'not_found');
    t.equal(await queue.retryDelivery(integration.id, 'nope', new Date()), 'not_found');
    t.equal(await queue.retryDelivery(integration.id, failed!.id, new Date()), 'queued');
    const [again] = await feed.listDeliveries({ integrationId: integration.id, ...ALL });
    t.match(again, { status: 'pending', attemptCount: 1, nextAttemptAt: Date });
    const reclaimed = (await queue.claimDue({ now: later(), limit: 100, leaseMs: 60_000 })).find((d) => d.id === failed!.id);
    t.equal(reclaimed?.event.id, claimed!.event.id, 'the same webhook-id');
    t.equal(reclaimed?.attempts, 1);
    await repos.integrations.update(integration.id, { webhookUrl: null });
    t.equal(await queue.retryDelivery(integration.id, failed!.id, new Date()), 'no_url');
  });

  t.test('deliveries list newest first, filtered by status and type, page after page', async (t) => {
    const garageId = await insertGarage(db);
    const integration = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook', syncAppointments: true });
    const outbox = makeOutbox(db);
    for (let i = 0; i < 5; i++) await outbox.enqueue({ garageId, type: i % 2 ? 'lead.created' : 'appointment.created', data: { i } });
    const all = await feed.listDeliveries({ integrationId: integration.id, ...ALL });
    t.equal(all.length, 5);
    t.same(all.map((d) => d.createdAt.getTime()), [...all.map((d) => d.createdAt.getTime())].sort((a, b) => b - a), 'newest first');
    const leads = await feed.listDeliveries({ integrationId: integration.id, ...ALL, type: 'lead.created' });
    t.equal(leads.length, 2);
    t.same(await feed.listDeliveries({ integrationId: integration.id, ...ALL, status: 'succeeded' }), []);
    const first = await feed.listDeliveries({ integrationId: integration.id, ...ALL, limit: 2 });
    const rest = await feed.listDeliveries({
      integrationId: integration.id,
      ...ALL,
      after: { sortValue: first[1]!.createdAt, id: first[1]!.id },
    });
    t.same([...first, ...rest].map((d) => d.id), all.map((d) => d.id));
  });

  t.test("the event feed: the garage's events since the integration exists, appointment ones only when it syncs them", async (t) => {
    const garageId = await insertGarage(db);
    const outbox = makeOutbox(db);
    await outbox.enqueue({ garageId, type: 'lead.created', data: { id: 'before' } });
    // Events and integrations are stamped by the database's clock to the millisecond: create these in a later one.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const syncing = await insertIntegration(db, garageId, { webhookUrl: null, syncAppointments: true });
    const plain = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
    await outbox.enqueue({ garageId, type: 'appointment.created', data: { id: 'a1' } });
    // Events are stamped to the millisecond, and events of one millisecond come in id order.
    await new Promise((resolve) => setTimeout(resolve, 2));
    await outbox.enqueue({ garageId, type: 'quote.accepted', data: { id: 'q1' } });
    await outbox.enqueue({ garageId: await insertGarage(db), type: 'lead.created', data: { id: 'elsewhere' } });
    const list = (integrationId: string, extra = {}) =>
      feed.listEvents({ integrationId, limit: 100, after: null, type: null, since: null, ...extra });
    t.same((await list(syncing.id)).map((e) => e.data), [{ id: 'a1' }, { id: 'q1' }], 'oldest first, without a webhook URL too');
    t.same((await list(plain.id)).map((e) => e.data), [{ id: 'q1' }]);
    t.same((await list(syncing.id, { type: 'quote.accepted' })).map((e) => e.type), ['quote.accepted']);
    const [firstEvent] = await list(syncing.id, { limit: 1 });
    const after = await list(syncing.id, { after: { sortValue: firstEvent!.occurredAt, id: firstEvent!.id } });
    t.same(after.map((e) => e.data), [{ id: 'q1' }]);
    t.same(await list(syncing.id, { since: new Date(Date.now() + 60_000) }), []);
    const [delivery] = await feed.listDeliveries({ integrationId: plain.id, ...ALL });
    t.equal(delivery?.eventId, (await list(plain.id))[0]?.id, 'event ids are the webhook-id of deliveries');
  });

  t.test('a claim carries the previous secret while the overlap of a rotation lasts', async (t) => {
    const garageId = await insertGarage(db);
    const integration = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
    const next = { ...integration.secret, keyId: 'next' };
    await repos.integrations.rotateWebhookSecret(integration.id, next, new Date(), 3_600_000);
    await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: {} });
    const [claimed] = (await queue.claimDue({ now: later(), limit: 100, leaseMs: 60_000 })).filter((d) => d.integrationId === integration.id);
    t.same(claimed?.secret, next);
    t.same(claimed?.previousSecret, integration.secret);
  });

  t.test('a commit that writes a delivery notifies the deliverers; one that writes none does not', async (t) => {
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    t.teardown(() => listener.end());
    const heard: string[] = [];
    const next = new Map<string, () => void>();
    listener.on('notification', (message) => {
      heard.push(message.channel);
      next.get(message.channel)?.();
    });
    const notified = (channel: string) => new Promise<void>((resolve) => next.set(channel, resolve));
    await listener.query(`listen ${OUTBOX_CHANNEL}`);
    // A listener receives notifications in commit order: once a probe committed after a write has arrived, any
    // notification of that write (or of what committed before it) has arrived too.
    const PROBE = 'garage_test_probe';
    await listener.query(`listen ${PROBE}`);
    const probe = async () => {
      const arrived = notified(PROBE);
      await sql`select pg_notify(${PROBE}, '')`.execute(db);
      await arrived;
    };
    const outboxHeard = () => heard.filter((channel) => channel === OUTBOX_CHANNEL);

    const garageId = await insertGarage(db);
    await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: {} });
    await probe();
    t.same(outboxHeard(), [], 'no integration with a URL: no delivery, no notification');
    await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
    const committed = notified(OUTBOX_CHANNEL);
    await db.transaction().execute(async (trx) => {
      await makeOutbox(trx).enqueue({ garageId, type: 'lead.created', data: {} });
      await probe();
      t.same(outboxHeard(), [], 'not before commit');
    });
    await committed;
    t.same(outboxHeard(), [OUTBOX_CHANNEL]);
  });
});
