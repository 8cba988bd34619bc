import { parseRetrySchedule, type WebhookEventType } from '@garage/domain';
import { connectPostgres, makeDeliveryQueue, makeOutbox, type Db } from '@garage/postgres';
import { createTestDatabase, insertGarage, insertIntegration } from '@garage/postgres/testing';
import { Webhook } from 'standardwebhooks';
import t, { type Test } from 'tap';
import { API_VERSIONS } from '@garage/versions';
import { makeWebhookDelivery } from '../src/webhook-delivery.js';
import { sleep, newEncryptionKey } from '@garage/domain/testing';
import { memoryLogger, startReceiver } from '@garage/webhook-delivery/testing';

// Real Postgres, real HTTP on loopback, the receiver's side checked with the Standard Webhooks reference library.
const database = await createTestDatabase('worker');
t.teardown(database.drop);
const { db } = database.handle;
const encryption = newEncryptionKey();

const delivery = (on: Db = db, schedule = '100ms,100ms,100ms', batchSize?: number, logger = memoryLogger()) =>
  makeWebhookDelivery({ db: on, encryptionKeys: encryption.keys, schedule: parseRetrySchedule(schedule), versions: API_VERSIONS, logger, allowedNetworks: ['127.0.0.0/8', '::1/128'], batchSize });

/** Writes the events the way the API does: inside the transaction of the change. */
const emit = (garageId: string, events: { type: WebhookEventType; data: Record<string, unknown> }[]) =>
  db.transaction().execute(async (trx) => {
    const outbox = makeOutbox(trx);
    for (const event of events) await outbox.enqueue({ garageId, ...event });
  });

const deliveriesOf = (integrationId: string) => makeDeliveryQueue(db).listByIntegration(integrationId, 100);

/** Waits (within a bound) until every delivery of the integration has the status `done` says is final. */
const settled = async (integrationId: string, done: (status: string) => boolean) => {
  for (let i = 0; i < 100 && !(await deliveriesOf(integrationId)).every((d) => done(d.status)); i++) await sleep(50);
};

/**
 * Starts a loop whose `stop` may be called by the test and again at teardown. A stopped loop has recorded every
 * attempt it made: what the receiver holds then is all it will ever get, so "nothing more was sent" needs no waiting.
 */
const started = (t: Test, loop: { stop(): Promise<void> }) => {
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= loop.stop());
  t.teardown(stop);
  return stop;
};

t.test('each event type arrives once, signed so that the standardwebhooks library verifies it', async (t) => {
  const receiver = await startReceiver();
  t.teardown(receiver.close);
  const garageId = await insertGarage(db);
  const integration = await insertIntegration(db, garageId, {
    webhookUrl: `${receiver.url}/hooks/garage`,
    syncAppointments: true,
    secretBox: encryption.secretBox,
  });
  const sent: { type: WebhookEventType; data: Record<string, unknown> }[] = [
    { type: 'appointment.created', data: { id: 'a1', startsAt: '2030-01-07T09:00:00+01:00', customer: { name: 'Zoé' } } },
    { type: 'quote.accepted', data: { id: 'q1', status: 'accepted', totalCents: 12000 } },
    { type: 'quote.refused', data: { id: 'q2', status: 'refused', reason: null } },
    { type: 'lead.created', data: { id: 'l1', vehicleId: 'v1', name: 'Jeanne', message: 'Encore dispo ?' } },
  ];
  await emit(garageId, sent);
  const stop = started(t, delivery().start({ pollIntervalMs: 50 }));
  await receiver.waitFor(4);
  // A 2xx is recorded after the receiver has answered: wait for the records, then stop.
  await settled(integration.id, (status) => status === 'succeeded');
  await stop();
  t.equal(receiver.received.length, 4, 'once each');

  const verifier = new Webhook(integration.plaintext);
  const events = await db.selectFrom('webhook_events').select(['id', 'type', 'created_at']).where('garage_id', '=', garageId).execute();
  for (const request of receiver.received) {
    t.equal(request.path, '/hooks/garage');
    t.equal(request.headers['content-type'], 'application/json');
    const payload = verifier.verify(request.body, request.headers) as { type: WebhookEventType; timestamp: string; data: unknown };
    const event = events.find((e) => e.id === request.headers['webhook-id']);
    t.ok(event, 'webhook-id is the event id');
    t.equal(payload.type, event?.type);
    t.same(payload.data, sent.find((s) => s.type === payload.type)?.data);
    t.equal(payload.timestamp, event?.created_at.toISOString(), 'RFC 3339 time of the event');
    t.ok(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000) < 30, 'webhook-timestamp is now, in seconds');
    t.throws(() => verifier.verify(request.body.replace('"data"', '"data" '), request.headers), 'a changed body fails verification');
  }
  t.same(receiver.received.map((r) => JSON.parse(r.body).type).sort(), sent.map((s) => s.type).sort());
  t.same((await deliveriesOf(integration.id)).map((d) => d.status), ['succeeded', 'succeeded', 'succeeded', 'succeeded']);
});

t.test('a receiver that fails twice gets the same webhook-id and body three times, on the schedule', async (t) => {
  const receiver = await startReceiver((_req, res, i) => void res.writeHead([500, 503][i] ?? 200).end());
  t.teardown(receiver.close);
  const garageId = await insertGarage(db);
  const integration = await insertIntegration(db, garageId, { webhookUrl: `${receiver.url}/flaky`, secretBox: encryption.secretBox });
  await emit(garageId, [{ type: 'quote.accepted', data: { id: 'q1' } }]);
  const stop = started(t, delivery(db, '150ms,150ms,150ms').start({ pollIntervalMs: 20 }));
  await receiver.waitFor(3);
  await settled(integration.id, (status) => status === 'succeeded');
  await stop();
  const requests = receiver.received;
  t.equal(requests.length, 3, 'no attempt after the success');
  t.equal(new Set(requests.map((r) => r.headers['webhook-id'])).size, 1);
  t.equal(new Set(requests.map((r) => r.body)).size, 1);
  t.ok(requests[1]!.at - requests[0]!.at >= 140 && requests[2]!.at - requests[1]!.at >= 140, 'waited between attempts');
  const verifier = new Webhook(integration.plaintext);
  for (const r of requests) t.doesNotThrow(() => verifier.verify(r.body, r.headers));
  const [view] = await deliveriesOf(integration.id);
  t.equal(view?.status, 'succeeded');
  t.same(view?.attempts.map((a) => a.statusCode), [500, 503, 200]);
});

t.test('410 stops delivery to that URL', async (t) => {
  const receiver = await startReceiver((_req, res) => void res.writeHead(410).end());
  t.teardown(receiver.close);
  const garageId = await insertGarage(db);
  const integration = await insertIntegration(db, garageId, { webhookUrl: `${receiver.url}/gone`, secretBox: encryption.secretBox });
  await emit(garageId, [1, 2, 3].map((n) => ({ type: 'lead.created' as const, data: { n } })));
  // One attempt at a time to the integration, so the 410 is answered before the next delivery would go out.
  const stop = started(t, delivery(db, '50ms,50ms,50ms', 1).start({ pollIntervalMs: 20, perIntegration: 1 }));
  await receiver.waitFor(1);
  await settled(integration.id, (status) => status === 'gone');
  await stop();
  t.equal(receiver.received.length, 1, 'no retry, and the backlog to that URL was dropped');
  t.same((await deliveriesOf(integration.id)).map((d) => d.status), ['gone', 'gone', 'gone']);
});

t.test('two delivery loops running together deliver each event exactly once', async (t) => {
  const receiver = await startReceiver(async (_req, res) => {
    await sleep(15);
    res.writeHead(200).end();
  });
  t.teardown(receiver.close);
  const garageId = await insertGarage(db);
  await insertIntegration(db, garageId, { webhookUrl: `${receiver.url}/a`, secretBox: encryption.secretBox });
  await insertIntegration(db, garageId, { webhookUrl: `${receiver.url}/b`, secretBox: encryption.secretBox });
  await emit(garageId, Array.from({ length: 30 }, (_, n) => ({ type: 'lead.created' as const, data: { n } })));

  const pools = [0, 1].map(() => connectPostgres({ connectionString: database.url, max: 4 }));
  t.teardown(() => Promise.all(pools.map((p) => p.close())));
  const loops = pools.map((p) => delivery(p.db, '100ms', 4).start({ pollIntervalMs: 10 }));
  await receiver.waitFor(60);
  // Stopped loops have recorded every attempt they made: nothing more can arrive.
  await Promise.all(loops.map((l) => l.stop()));
  t.equal(receiver.received.length, 60, 'no duplicate');
  const keys = receiver.received.map((r) => `${r.path} ${r.headers['webhook-id']}`);
  t.equal(new Set(keys).size, 60, 'every (endpoint, event) pair once');
});

t.test('delivery log lines name the receiver by its origin and the integration, never its path or query', async (t) => {
  // Slack, Discord and Zapier put the receiver's secret in the path.
  const secretPath = '/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX';
  const receiver = await startReceiver((request, response) => void response.writeHead(request.path.endsWith('fail') ? 500 : 204).end());
  t.teardown(receiver.close);
  const garageId = await insertGarage(db);
  const delivered = await insertIntegration(db, garageId, { webhookUrl: `${receiver.url}${secretPath}?token=query-secret`, syncAppointments: true, secretBox: encryption.secretBox });
  const failing = await insertIntegration(db, garageId, { webhookUrl: `${receiver.url}${secretPath}/fail`, syncAppointments: true, secretBox: encryption.secretBox });
  await emit(garageId, [{ type: 'appointment.created', data: { id: 'a1' } }]);
  const logger = memoryLogger();
  t.equal(await delivery(db, '1h', undefined, logger).deliverDue(), 2);
  const lines = logger.lines.filter((line) => line.msg?.startsWith('webhook'));
  t.equal(lines.length, 2, 'one line per attempt');
  for (const line of lines) {
    t.match(line.obj, { origin: receiver.url }, String(line.msg));
    t.ok([delivered.id, failing.id].includes((line.obj as { integrationId: string }).integrationId), 'and the integration');
  }
  const text = JSON.stringify(logger.lines);
  t.notMatch(text, /services|XXXX|query-secret/, 'neither the path nor the query');
});
