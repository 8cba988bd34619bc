import { makeUnitOfWork } from '@garage/postgres';
import { startReceiver } from '@garage/webhook-delivery/testing';
import { Webhook } from 'standardwebhooks';
import t from 'tap';
import { build, LOOPBACK_WEBHOOKS, RFC3339, UUID } from './helper.js';

const waitFor = async (condition: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
  const until = Date.now() + timeoutMs;
  while (!(await condition()) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  return condition();
};

/** docs/reference/contract.md §5.1, against a real receiver on loopback. */
t.test('webhook self-service', async (t) => {
  const receiver = await startReceiver((request, response) => {
    response.writeHead(request.path.startsWith('/down') ? 503 : 204).end();
  });
  t.teardown(receiver.close);
  const { app, admin, db } = await build(t, { env: { WEBHOOK_RETRY_SCHEDULE: '1h', ...LOOPBACK_WEBHOOKS } });
  await admin.createGarage({ slug: 'hooks', name: 'Hooks' });
  // No toggle at all: self-service works whatever the integration syncs.
  const shop = await admin.createIntegration({ garageSlug: 'hooks', name: 'shop', sync: [], webhookUrl: `${receiver.url}/ok` });
  const down = await admin.createIntegration({ garageSlug: 'hooks', name: 'down', sync: [], webhookUrl: `${receiver.url}/down` });
  const bare = await admin.createIntegration({ garageSlug: 'hooks', name: 'bare', sync: ['appointments'], webhookUrl: null });
  await app.ready();
  const call = (method: 'GET' | 'POST', url: string, apiKey: string) =>
    app.inject({ method, url: `/api/public${url}`, headers: { 'x-api-key': apiKey } });
  const garageId = shop.integration.garageId;
  // Events are stamped to the millisecond and events of one millisecond come in id order: the tests that check the
  // order of the feed write each event in a millisecond of its own.
  const enqueue = async (type: 'lead.created' | 'quote.accepted' | 'appointment.created', data: Record<string, unknown>) => {
    await makeUnitOfWork(db.handle.db).run((tx) => tx.outbox.enqueue({ garageId, type, data }));
    await new Promise((resolve) => setTimeout(resolve, 2));
  };

  t.test('POST /webhooks/test sends one signed webhook.test and answers with what happened', async (t) => {
    const before = receiver.received.length;
    const res = await call('POST', '/webhooks/test', shop.apiKey);
    t.equal(res.statusCode, 200);
    const { data } = res.json();
    t.match(data, { eventId: UUID, delivered: true, responseStatus: 204, error: null, durationMs: Number });
    t.equal(receiver.received.length, before + 1, 'exactly one request');
    const sent = receiver.received.at(-1)!;
    t.equal(sent.headers['webhook-id'], data.eventId);
    const payload = new Webhook(shop.webhookSecret).verify(sent.body, sent.headers) as Record<string, unknown>;
    t.match(payload, { type: 'webhook.test', timestamp: RFC3339, data: { integrationId: shop.integration.id } });

    const failing = (await call('POST', '/webhooks/test', down.apiKey)).json().data;
    t.match(failing, { delivered: false, responseStatus: 503, error: null });
    t.equal(receiver.received.length, before + 2, 'no retry after a failed test');
  });

  t.test('a test without a webhook URL is 409 WEBHOOK_NOT_CONFIGURED; an unreachable one is reported, not an error', async (t) => {
    const res = await call('POST', '/webhooks/test', bare.apiKey);
    t.equal(res.statusCode, 409);
    t.equal(res.json().code, 'WEBHOOK_NOT_CONFIGURED');
    const gone = await startReceiver();
    await gone.close();
    const closed = await admin.createIntegration({ garageSlug: 'hooks', name: 'closed', sync: [], webhookUrl: `${gone.url}/none` });
    const unreachable = (await call('POST', '/webhooks/test', closed.apiKey)).json().data;
    t.match(unreachable, { delivered: false, responseStatus: null, error: 'connection refused' }, 'in coarse words, no address');
    t.equal((await call('POST', '/webhooks/test', 'f'.repeat(32))).statusCode, 401);
  });

  t.test('at most 10 tests a minute per integration, then 429 with Retry-After', async (t) => {
    const limited = await admin.createIntegration({ garageSlug: 'hooks', name: 'limited', sync: [], webhookUrl: `${receiver.url}/ok` });
    for (let i = 0; i < 10; i++) t.equal((await call('POST', '/webhooks/test', limited.apiKey)).statusCode, 200, `test ${i + 1}`);
    const refused = await call('POST', '/webhooks/test', limited.apiKey);
    t.equal(refused.statusCode, 429);
    t.equal(refused.json().code, 'RATE_LIMITED');
    t.ok(Number(refused.headers['retry-after']) > 0);
    t.equal((await call('POST', '/webhooks/test', shop.apiKey)).statusCode, 200, 'another integration is not limited by it');
  });

  t.test('GET /webhooks/deliveries lists the caller\'s deliveries newest first, filtered, page by page', async (t) => {
    await enqueue('lead.created', { id: 'lead-1' });
    await enqueue('quote.accepted', { id: 'quote-1' });
    await enqueue('lead.created', { id: 'lead-2' });
    t.ok(await waitFor(async () => (await call('GET', '/webhooks/deliveries?status=pending', down.apiKey)).json().data.every((d: { attemptCount: number }) => d.attemptCount > 0)));
    t.ok(await waitFor(async () => (await call('GET', '/webhooks/deliveries?status=succeeded', shop.apiKey)).json().data.length === 3));
    const all = (await call('GET', '/webhooks/deliveries', shop.apiKey)).json();
    t.equal(all.data.length, 3);
    t.same(all.data.map((d: { type: string }) => d.type), ['lead.created', 'quote.accepted', 'lead.created']);
    t.match(all.data[0], {
      id: UUID,
      eventId: UUID,
      status: 'succeeded',
      attemptCount: 1,
      lastAttemptAt: RFC3339,
      lastResponseStatus: 204,
      nextAttemptAt: null,
      createdAt: RFC3339,
    });
    t.same(Object.keys(all.data[0]).sort(), ['attemptCount', 'createdAt', 'eventId', 'id', 'lastAttemptAt', 'lastResponseStatus', 'nextAttemptAt', 'status', 'type']);
    const failing = (await call('GET', '/webhooks/deliveries', down.apiKey)).json().data;
    t.match(failing[0], { status: 'pending', attemptCount: 1, lastResponseStatus: 503, nextAttemptAt: RFC3339 });
    t.equal((await call('GET', '/webhooks/deliveries?type=quote.accepted', shop.apiKey)).json().data.length, 1);
    t.same((await call('GET', '/webhooks/deliveries?status=failed', shop.apiKey)).json().data, []);
    const first = (await call('GET', '/webhooks/deliveries?limit=2', shop.apiKey)).json();
    t.equal(first.data.length, 2);
    const rest = (await call('GET', `/webhooks/deliveries?limit=2&cursor=${first.nextCursor}`, shop.apiKey)).json();
    t.same([...first.data, ...rest.data].map((d: { id: string }) => d.id), all.data.map((d: { id: string }) => d.id));
    t.equal(rest.nextCursor, null);
    t.equal((await call('GET', '/webhooks/deliveries?status=lost', shop.apiKey)).statusCode, 400);
    t.equal((await call('GET', `/webhooks/deliveries?cursor=${first.nextCursor}`, down.apiKey)).statusCode, 400, "a cursor of another integration's list");
  });

  t.test('POST /webhooks/deliveries/:id/retry makes one more attempt now, with the same webhook-id', async (t) => {
    const [delivery] = (await call('GET', '/webhooks/deliveries?type=quote.accepted', shop.apiKey)).json().data;
    const before = receiver.received.length;
    const res = await call('POST', `/webhooks/deliveries/${delivery.id}/retry`, shop.apiKey);
    t.equal(res.statusCode, 202);
    t.same(res.json(), { ok: true });
    t.ok(await waitFor(() => receiver.received.length > before), 'sent again');
    const resent = receiver.received.slice(before).find((r) => r.headers['webhook-id'] === delivery.eventId);
    t.ok(resent, 'same webhook-id');
    t.ok(await waitFor(async () => (await call('GET', '/webhooks/deliveries?type=quote.accepted', shop.apiKey)).json().data[0].attemptCount === 2));
    t.equal((await call('POST', `/webhooks/deliveries/${delivery.id}/retry`, down.apiKey)).statusCode, 404, "another integration's delivery");
    t.equal((await call('POST', '/webhooks/deliveries/00000000-0000-4000-8000-000000000000/retry', shop.apiKey)).statusCode, 404);
    t.equal((await call('POST', '/webhooks/deliveries/nope/retry', shop.apiKey)).statusCode, 400);
  });

  t.test('GET /events is the feed a connector catches up from: oldest first, ids equal to webhook-id', async (t) => {
    await enqueue('appointment.created', { id: 'appointment-1' });
    const shopEvents = (await call('GET', '/events', shop.apiKey)).json().data;
    t.same(shopEvents.map((e: { type: string }) => e.type), ['lead.created', 'quote.accepted', 'lead.created'], 'no appointment event without the toggle');
    t.match(shopEvents[0], { id: UUID, type: 'lead.created', timestamp: RFC3339, data: { id: 'lead-1' } });
    const deliveries = (await call('GET', '/webhooks/deliveries', shop.apiKey)).json().data;
    t.same(new Set(shopEvents.map((e: { id: string }) => e.id)), new Set(deliveries.map((d: { eventId: string }) => d.eventId)));
    const bareEvents = (await call('GET', '/events', bare.apiKey)).json().data;
    t.equal(bareEvents.at(-1).type, 'appointment.created', 'without a webhook URL, with the toggle');
    t.same((await call('GET', '/events?type=quote.accepted', shop.apiKey)).json().data.map((e: { data: unknown }) => e.data), [{ id: 'quote-1' }]);
    const since = encodeURIComponent(shopEvents[1].timestamp);
    t.ok((await call('GET', `/events?since=${since}`, shop.apiKey)).json().data.length >= 2);
    t.same((await call('GET', '/events?since=2999-01-01T00:00:00Z', shop.apiKey)).json().data, []);
    const page = (await call('GET', '/events?limit=1', shop.apiKey)).json();
    const next = (await call('GET', `/events?limit=5&cursor=${page.nextCursor}`, shop.apiKey)).json();
    t.same([...page.data, ...next.data].map((e: { id: string }) => e.id), shopEvents.map((e: { id: string }) => e.id));
    t.equal((await call('GET', '/events?since=yesterday', shop.apiKey)).statusCode, 400);
  });

  t.test('revoking an integration cancels its pending deliveries', async (t) => {
    const pending = (await call('GET', '/webhooks/deliveries?status=pending', down.apiKey)).json().data;
    t.ok(pending.length > 0);
    await admin.revokeIntegration(down.integration.id);
    const statuses = await db.handle.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('integration_id', '=', down.integration.id)
      .execute();
    t.ok(statuses.every((d) => d.status === 'cancelled'), 'nothing stays pending');
  });

  t.test('at most 30 retries a minute per integration, then 429 with Retry-After', async (t) => {
    await admin.createGarage({ slug: 'retries', name: 'Retries' });
    const retrying = await admin.createIntegration({ garageSlug: 'retries', name: 'retrying', sync: [], webhookUrl: `${receiver.url}/ok` });
    const other = await admin.createIntegration({ garageSlug: 'retries', name: 'other', sync: [], webhookUrl: `${receiver.url}/ok` });
    await makeUnitOfWork(db.handle.db).run((tx) => tx.outbox.enqueue({ garageId: retrying.integration.garageId, type: 'lead.created', data: { id: 'lead-r' } }));
    t.ok(await waitFor(async () => (await call('GET', '/webhooks/deliveries', retrying.apiKey)).json().data.length === 1));
    const [delivery] = (await call('GET', '/webhooks/deliveries', retrying.apiKey)).json().data;
    const retry = (apiKey: string, id: string) => call('POST', `/webhooks/deliveries/${id}/retry`, apiKey);
    for (let i = 0; i < 30; i++) t.equal((await retry(retrying.apiKey, delivery.id)).statusCode, 202, `retry ${i + 1}`);
    const refused = await retry(retrying.apiKey, delivery.id);
    t.equal(refused.statusCode, 429);
    t.equal(refused.json().code, 'RATE_LIMITED');
    t.ok(Number(refused.headers['retry-after']) > 0);
    const [otherDelivery] = (await call('GET', '/webhooks/deliveries', other.apiKey)).json().data;
    t.equal((await retry(other.apiKey, otherDelivery.id)).statusCode, 202, 'another integration is not limited by it');
  });
});

t.test('without WEBHOOK_ALLOWED_NETWORKS a loopback receiver is refused: no connection, a coarse error', async (t) => {
  const receiver = await startReceiver();
  t.teardown(receiver.close);
  const { app, admin, db } = await build(t, { env: { WEBHOOK_RETRY_SCHEDULE: '1h' } });
  await admin.createGarage({ slug: 'inside', name: 'Inside' });
  // The test's operator may configure loopback URLs (see `adminFor` in @garage/composition/testing); this API process allows no internal destination.
  const inside = await admin.createIntegration({ garageSlug: 'inside', name: 'inside', sync: [], webhookUrl: `${receiver.url}/hook` });
  await app.ready();
  const res = await app.inject({ method: 'POST', url: '/api/public/webhooks/test', headers: { 'x-api-key': inside.apiKey } });
  t.equal(res.statusCode, 200);
  t.match(res.json().data, { delivered: false, responseStatus: null, error: 'destination not allowed' });
  t.notMatch(res.body, /127\.0\.0\.1|ECONN/, 'no address, no raw library message');
  await makeUnitOfWork(db.handle.db).run((tx) => tx.outbox.enqueue({ garageId: inside.integration.garageId, type: 'lead.created', data: { id: 'lead-x' } }));
  const attempts = () => db.handle.db.selectFrom('webhook_attempts').select(['error', 'status_code']).execute();
  t.ok(await waitFor(async () => (await attempts()).length === 1), 'the delivery was attempted');
  t.same(await attempts(), [{ error: 'destination not allowed', status_code: null }], 'a delivery to a refused address fails with that error');
  t.equal(receiver.received.length, 0, 'the receiver saw nothing');
});
