import t from 'tap';
import {
  DELIVERY_LEASE_MS,
  makeDeliverDueWebhooks,
  makeInMemoryWebhooks,
  makeListWebhookDeliveries,
  makeReplayWebhook,
  makeSecretBox,
  parseRetrySchedule,
  signWebhook,
  WEBHOOK_TIMEOUT_MS,
  type DeliveryReport,
  type WebhookRequest,
  type WebhookResponse,
  webhookBody,
} from './support.js';
import { fakeIntegrations, secretBox, testClock, type TestClock } from '../src/testing/index.js';

const GARAGE = 'garage-1';
const START = '2030-01-07T09:00:00Z';

/** A receiver scripted response by response; each call takes `tookMs` on the fake clock. */
const scriptedSender = (clock: TestClock, script: (WebhookResponse | Error)[], tookMs = 40) => {
  const requests: WebhookRequest[] = [];
  return {
    requests,
    sender: {
      async send(request: WebhookRequest): Promise<WebhookResponse> {
        requests.push(request);
        clock.advance(tookMs);
        const next = script.shift() ?? { statusCode: 200 };
        if (next instanceof Error) throw next;
        return next;
      },
    },
  };
};

const setup = (script: (WebhookResponse | Error)[] = [], scheduleText = '1s,2s,4s') => {
  const clock = testClock(START);
  const integrations = fakeIntegrations();
  const store = makeInMemoryWebhooks({ integrations: integrations.repo, clock });
  const { sender, requests } = scriptedSender(clock, script);
  const reports: DeliveryReport[] = [];
  const schedule = parseRetrySchedule(scheduleText);
  const deliver = makeDeliverDueWebhooks({
    renderBody: webhookBody,
    queue: store.queue,
    secrets: secretBox,
    sender,
    clock,
    schedule,
    batchSize: 5,
    onDelivery: (r) => reports.push(r),
  });
  return { clock, integrations, store, deliver, requests, reports, schedule };
};

t.test('a due delivery is signed and POSTed once, then marked succeeded', async (t) => {
  const { clock, integrations, store, deliver, requests, reports } = setup([{ statusCode: 204 }]);
  const hook = integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/hook' });
  await store.outbox.enqueue({ garageId: GARAGE, type: 'quote.accepted', data: { id: 'q1', status: 'accepted' } });
  const [event] = store.events();

  t.equal(await deliver(), 1);
  t.equal(requests.length, 1);
  const [request] = requests;
  t.equal(request?.url, 'http://127.0.0.1:9/hook');
  t.equal(request?.timeoutMs, WEBHOOK_TIMEOUT_MS);
  t.same(JSON.parse(request!.body), {
    type: 'quote.accepted',
    timestamp: event!.occurredAt.toISOString(),
    livemode: true,
    data: { id: 'q1', status: 'accepted' },
  });
  const timestamp = Math.floor(Date.parse('2030-01-07T09:00:00.000Z') / 1000);
  t.same(request?.headers, {
    'content-type': 'application/json',
    'webhook-id': event!.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(hook.plaintext, event!.id, timestamp, request!.body),
  });

  t.equal(await deliver(), 0, 'nothing left to do');
  const [view] = await store.queue.listByIntegration(hook.id, 10);
  t.equal(view?.status, 'succeeded');
  t.same(view?.attempts, [{ attemptedAt: new Date(timestamp * 1000), statusCode: 204, error: null, durationMs: 40 }]);
  t.equal(reports[0]?.outcome.status, 'succeeded');
  t.equal(reports[0]?.recorded, true);
  clock.advance(DELIVERY_LEASE_MS * 10);
  t.equal(await deliver(), 0, 'and never sent again');
});

t.test('failures are retried on the schedule with the same id and body, and a fresh signature', async (t) => {
  const { clock, integrations, store, deliver, requests } = setup([
    { statusCode: 500 },
    { error: 'timeout after 10000 ms' },
    { statusCode: 302 },
    { statusCode: 200 },
  ]);
  const hook = integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/hook' });
  await store.outbox.enqueue({ garageId: GARAGE, type: 'lead.created', data: { id: 'l1' } });

  t.equal(await deliver(), 1);
  for (const delay of [1_000, 2_000, 4_000]) {
    clock.advance(delay - 1);
    t.equal(await deliver(), 0, `not before ${delay} ms`);
    clock.advance(1);
    t.equal(await deliver(), 1, `retried after ${delay} ms`);
  }
  t.equal(requests.length, 4);
  t.equal(new Set(requests.map((r) => r.headers['webhook-id'])).size, 1, 'one webhook-id');
  t.equal(new Set(requests.map((r) => r.body)).size, 1, 'the same bytes');
  t.equal(new Set(requests.map((r) => r.headers['webhook-timestamp'])).size, 4, 'each attempt has its own timestamp');
  for (const r of requests) {
    t.equal(r.headers['webhook-signature'], signWebhook(hook.plaintext, r.headers['webhook-id']!, Number(r.headers['webhook-timestamp']), r.body));
  }
  const [view] = await store.queue.listByIntegration(hook.id, 10);
  t.equal(view?.status, 'succeeded');
  t.same(view?.attempts.map((a) => [a.statusCode, a.error]), [
    [500, null],
    [null, 'timeout after 10000 ms'],
    [302, null],
    [200, null],
  ]);
});

t.test('after the last scheduled retry fails, the delivery is failed for good', async (t) => {
  const { clock, integrations, store, deliver, requests } = setup(
    Array.from({ length: 10 }, () => ({ statusCode: 503 })),
    '1s,1s',
  );
  const hook = integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/hook' });
  await store.outbox.enqueue({ garageId: GARAGE, type: 'lead.created', data: {} });
  for (let i = 0; i < 6; i++) {
    await deliver();
    clock.advance(1_000);
  }
  t.equal(requests.length, 3, 'the first attempt and one per schedule entry');
  const [view] = await store.queue.listByIntegration(hook.id, 10);
  t.equal(view?.status, 'failed');
  t.equal(view?.attemptCount, 3);
});

t.test('410 stops delivery to that URL: the backlog there is dropped, other endpoints are unaffected', async (t) => {
  const { clock, integrations, store } = setup();
  const gone = integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/gone' });
  const fine = integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/fine' });
  for (let n = 0; n < 3; n++) await store.outbox.enqueue({ garageId: GARAGE, type: 'lead.created', data: { n } });
  const requests: WebhookRequest[] = [];
  // One at a time, so that the 410 comes back before the gone URL's other deliveries are claimed.
  const deliverOne = makeDeliverDueWebhooks({
    renderBody: webhookBody,
    queue: store.queue,
    secrets: secretBox,
    sender: {
      send: async (r) => {
        requests.push(r);
        return { statusCode: r.url.endsWith('/gone') ? 410 : 200 };
      },
    },
    clock,
    schedule: [1_000],
    batchSize: 1,
  });
  while ((await deliverOne()) > 0);
  t.equal(requests.filter((r) => r.url.endsWith('/gone')).length, 1, 'one 410 is enough');
  t.same((await store.queue.listByIntegration(gone.id, 10)).map((v) => v.status), ['gone', 'gone', 'gone']);
  t.same((await store.queue.listByIntegration(fine.id, 10)).map((v) => v.status), ['succeeded', 'succeeded', 'succeeded']);
});

t.test('a sender that throws, or a secret no key decrypts, is a recorded failed attempt', async (t) => {
  const { clock, integrations, store, deliver, reports } = setup([new Error('socket hang up')]);
  const hook = integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/hook' });
  await store.outbox.enqueue({ garageId: GARAGE, type: 'lead.created', data: {} });
  t.equal(await deliver(), 1);
  t.equal(reports[0]?.outcome.status, 'pending');
  t.equal(reports[0]?.attempt.error, 'socket hang up');

  const otherKeys = makeSecretBox([{ id: 'k2', key: Buffer.alloc(32, 1) }]);
  const noKey = makeDeliverDueWebhooks({
    renderBody: webhookBody,
    queue: store.queue,
    secrets: otherKeys,
    sender: { send: async () => t.fail('never sent without a signature') as never },
    clock,
    schedule: [1_000],
  });
  clock.advance(1_000);
  t.equal(await noKey(), 1);
  const [view] = await store.queue.listByIntegration(hook.id, 10);
  t.match(view?.attempts[1]?.error, /no encryption key with id k1/);
  t.equal(view?.status, 'failed', 'the schedule of one retry is over');
});

t.test('claims at most batchSize per call', async (t) => {
  const { integrations, store, deliver, requests } = setup();
  integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/hook' });
  for (let i = 0; i < 7; i++) await store.outbox.enqueue({ garageId: GARAGE, type: 'lead.created', data: { i } });
  t.equal(await deliver(), 5);
  t.equal(await deliver(), 2);
  t.equal(await deliver(), 0);
  t.equal(requests.length, 7);
});

t.test('a failure to record one outcome is reported after the whole batch is settled', async (t) => {
  const clock = testClock(START);
  const integrations = fakeIntegrations();
  const store = makeInMemoryWebhooks({ integrations: integrations.repo, clock });
  integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/hook' });
  for (let i = 0; i < 3; i++) await store.outbox.enqueue({ garageId: GARAGE, type: 'lead.created', data: { i } });
  let completions = 0;
  const deliver = makeDeliverDueWebhooks({
    renderBody: webhookBody,
    queue: {
      claimDue: store.queue.claimDue,
      complete: async (...args) => {
        completions += 1;
        if (completions === 1) throw new Error('database unavailable');
        return store.queue.complete(...args);
      },
    },
    secrets: secretBox,
    sender: { send: async () => ({ statusCode: 200 }) },
    clock,
    schedule: [1_000],
  });
  await t.rejects(deliver(), /database unavailable/);
  t.equal(completions, 3, 'the other deliveries were still recorded');
});

t.test('replay sends an event again now; an unknown event is NOT_FOUND', async (t) => {
  const { clock, integrations, store, deliver, requests } = setup([{ statusCode: 500 }], '1s');
  const hook = integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/hook' });
  await store.outbox.enqueue({ garageId: GARAGE, type: 'quote.refused', data: { id: 'q' } });
  const [event] = store.events();
  await deliver();
  clock.advance(1_000);
  await deliver();
  t.equal((await store.queue.listByIntegration(hook.id, 1))[0]?.status, 'succeeded');

  const replay = makeReplayWebhook({ queue: store.queue, clock });
  t.same(await replay(event!.id), { eventId: event!.id, deliveries: 1 });
  t.equal(await deliver(), 1);
  t.equal(requests.length, 3);
  t.equal(requests[2]?.headers['webhook-id'], event!.id);
  t.equal(requests[2]?.body, requests[0]?.body);
  await t.rejects(replay('00000000-0000-4000-8000-000000000000'), { code: 'NOT_FOUND' });
});

t.test('listing deliveries needs a known integration and a sane limit', async (t) => {
  const { integrations, store, deliver } = setup();
  const hook = integrations.add(GARAGE, { webhookUrl: 'http://127.0.0.1:9/hook' });
  await store.outbox.enqueue({ garageId: GARAGE, type: 'lead.created', data: {} });
  await deliver();
  const list = makeListWebhookDeliveries({ queue: store.queue, integrations: integrations.repo });
  const views = await list({ integrationId: hook.id });
  t.equal(views.length, 1);
  t.equal(views[0]?.attempts[0]?.statusCode, 200);
  await t.rejects(list({ integrationId: 'nope' }), { code: 'NOT_FOUND' });
  for (const limit of [0, 501, 1.5]) {
    await t.rejects(list({ integrationId: hook.id, limit }), { code: 'VALIDATION_FAILED' });
  }
});
