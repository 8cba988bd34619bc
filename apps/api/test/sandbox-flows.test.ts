import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import t, { type Test } from 'tap';
import type { App } from '../src/index.js';
import { build, LogCapture, LOOPBACK_WEBHOOKS, product, vehicle } from './helper.js';

/**
 * The connector's flows of docs/connectors/testing-your-integration.md, end to end over HTTP with a test key: book,
 * reschedule, cancel, a quote from a test helper accepted, an appointment completed as the garage would, each event
 * on the test webhook URL only (signed with the test secret, `livemode: false`), then a reset.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

const receiver = async (t: Test) => {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
};

const waitFor = async (condition: () => boolean, timeoutMs = 15_000) => {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return condition();
};

const call = async (app: App, key: string, method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
  const response = await app.inject({
    method,
    url: `/api/public${url}`,
    headers: { 'x-api-key': key, 'garage-version': '2026-11-26', ...headers },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
};

const localDate = (daysAhead: number) => new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);

t.test('a connector builds against its sandbox, then switches to live by changing the key', async (t) => {
  const [liveHook, testHook] = [await receiver(t), await receiver(t)];
  const logs = new LogCapture();
  const { app, admin } = await build(t, { logs, env: { WEBHOOK_RETRY_SCHEDULE: '100ms', ...LOOPBACK_WEBHOOKS } });
  await admin.createGarage({ slug: 'flows', name: 'Flows', hours: 'mon-sun 08:00-18:00', minNoticeMinutes: 0 });
  await admin.importProducts('flows', [product('OIL'), product('PADS')]);
  await admin.importVehicles('flows', [vehicle('V-1')]);
  const created = await admin.createIntegration({ garageSlug: 'flows', name: 'Shop', sync: ['appointments', 'catalog', 'stock'], webhookUrl: liveHook.url });
  await admin.updateIntegration(created.integration.id, { testWebhookUrl: testHook.url });
  const key = created.sandbox.testApiKey;
  const verify = new Webhook(created.sandbox.testWebhookSecret);
  const events = () => testHook.received.map((r) => verify.verify(r.body, r.headers as Record<string, string>) as { type: string; livemode: boolean; data: { id?: string; status?: string } });
  await app.ready();

  const products = await call(app, key, 'GET', '/products');
  t.same(products.body.data.map((p: { sku: string }) => p.sku).sort(), ['OIL', 'PADS'], 'the catalog by the same skus');
  t.equal(products.headers['garage-mode'], 'test');
  const slots = await call(app, key, 'GET', `/appointments/availability?from=${localDate(2)}&to=${localDate(3)}`);
  const [first, second] = slots.body.data as { startsAt: string }[];
  const booked = await call(app, key, 'POST', '/appointments', { startsAt: first!.startsAt, customer: { name: 'Test driver', email: 'test@example.com' } }, { 'idempotency-key': 'same-key' });
  t.equal(booked.status, 201);
  const id = booked.body.data.id as string;
  const liveBooked = await call(app, created.apiKey, 'POST', '/appointments', { startsAt: first!.startsAt, customer: { name: 'Test driver', email: 'test@example.com' } }, { 'idempotency-key': 'same-key' });
  t.equal(liveBooked.status, 201, 'the same Idempotency-Key in live mode books in live');
  t.equal(liveBooked.headers['idempotent-replayed'], undefined, 'and never replays the sandbox answer');
  t.not(liveBooked.body.data.id, id);

  t.equal((await call(app, key, 'POST', `/appointments/${id}/reschedule`, { startsAt: second!.startsAt })).status, 200);
  const status = await call(app, key, 'POST', `/test-helpers/appointments/${id}/status`, { status: 'completed' });
  t.equal(status.status, 200);
  t.equal(status.body.data.status, 'completed', 'moved as the garage moves it');
  const other = await call(app, key, 'POST', '/appointments', { startsAt: first!.startsAt, customer: { name: 'Other', phone: '+33600000000' } });
  t.equal((await call(app, key, 'POST', `/appointments/${other.body.data.id}/cancel`, { reason: 'test' })).status, 200);

  const quote = await call(app, key, 'POST', '/test-helpers/quotes', {
    customer: { name: 'Jeanne Test', email: 'jeanne@example.com' },
    lines: [{ label: 'Front brake pads', quantity: 1, unitPriceCents: 5490, vatRate: 20 }],
  });
  t.equal(quote.status, 201);
  t.match(quote.body.data, { status: 'pending', customerName: 'Jeanne Test', totalCents: 6588, token: /^[A-Za-z0-9_-]{43}$/ });
  const accepted = await app.inject({ method: 'POST', url: `/api/public/quotes/${quote.body.data.token}/accept`, payload: { signerName: 'Jeanne' } });
  t.equal(accepted.statusCode, 200, 'the helper quote is accepted with its token');

  const expected = ['appointment.created', 'appointment.created', 'appointment.rescheduled', 'appointment.updated', 'appointment.cancelled', 'quote.accepted'];
  t.ok(await waitFor(() => testHook.received.length >= expected.length), 'every sandbox event reaches the test webhook URL');
  t.same(events().map((e) => e.type).sort(), [...expected].sort());
  t.ok(events().every((e) => e.livemode === false), 'signed with the test secret, livemode: false');
  t.match(events().find((e) => e.type === 'appointment.updated'), { data: { id, status: 'completed' } });
  t.ok(await waitFor(() => liveHook.received.length >= 1));
  const liveEvents = liveHook.received.map((r) => new Webhook(created.webhookSecret).verify(r.body, r.headers as Record<string, string>) as { type: string; livemode: boolean });
  t.same(liveEvents.map((e) => [e.type, e.livemode]), [['appointment.created', true]], 'the live URL gets the live booking only');

  const webhookTest = await call(app, key, 'POST', '/webhooks/test', {});
  t.match(webhookTest.body.data, { delivered: true });
  const sent = testHook.received.at(-1)!;
  t.match(verify.verify(sent.body, sent.headers as Record<string, string>), { type: 'webhook.test', livemode: false }, 'a webhook test in test mode goes to the test URL');

  t.equal((await call(app, created.apiKey, 'POST', '/test-helpers/sandbox/reset')).status, 404, 'no test helper for a live key');
  t.equal((await call(app, created.apiKey, 'POST', '/test-helpers/quotes', { customer: { name: 'X' }, lines: [{ label: 'x', quantity: 1, unitPriceCents: 1, vatRate: 20 }] })).status, 404);
  const reset = await call(app, key, 'POST', '/test-helpers/sandbox/reset');
  t.equal(reset.status, 200);
  t.ok(Math.abs(Date.parse(reset.body.data.resetAt) - Date.now()) < 60_000);
  t.same((await call(app, key, 'GET', '/appointments')).body.data, [], 'appointments emptied');
  t.same((await call(app, key, 'GET', '/events')).body.data, [], 'events emptied');
  t.same((await call(app, key, 'GET', '/webhooks/deliveries')).body.data, [], 'deliveries emptied');
  t.same((await call(app, key, 'GET', '/products')).body.data.map((p: { id: string }) => p.id).sort(), products.body.data.map((p: { id: string }) => p.id).sort(), 'the copy keeps its ids');
  t.equal((await call(app, created.apiKey, 'GET', '/appointments')).body.data.length, 1, 'the live garage is untouched');

  const completed = logs.lines.filter((line) => line.msg === 'request completed');
  t.ok(completed.some((line) => line.mode === 'test'), 'a test-key request logs mode: test');
  t.ok(completed.some((line) => line.mode === 'live'), 'a live one mode: live');
  const metrics = await app.metrics.registry.metrics();
  t.match(metrics, /http_requests_total\{[^}]*mode="test"[^}]*\} \d+/, 'the request metrics carry the mode');
  t.match(metrics, /http_request_duration_seconds_count\{[^}]*mode="live"[^}]*\} \d+/);
});
