import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testClock } from '@garage/domain/testing';
import t, { type Test } from 'tap';
import { buildApp, loadConfig, type App } from '../src/index.js';
import { loadDocument } from './openapi-conformance.js';
import { bookingBody, MONDAY_9AM, TUESDAY, at } from './appointments-support.js';
import { build, checkResponsesAgainstDocument, LOOPBACK_WEBHOOKS, product, vehicle } from './helper.js';

/**
 * docs/reference/contract.md §9: ids of one mode are unknown in the other, in both directions, for every resource.
 * Every key-authenticated operation of the OpenAPI document is sent with the key of one mode and the ids of the
 * other: the answer is 404 (or 400 INVALID_REFERENCE for ids in a body), or a list holding none of the other mode's
 * ids. An operation the document gains without a line in `probes` fails this test, so a new endpoint cannot skip it.
 * Public operations (leads, quotes) carry no key: their id is their mode, proven at the end. Run on Postgres and PGlite.
 */

interface ModeWorld {
  key: string;
  appointmentId: string;
  productId: string;
  vehicleId: string;
  /** Null where the mode has no delivery (no webhook URL): a random id stands in. */
  deliveryId: string | null;
  eventId: string;
  /** Every id this mode's data holds, to look for in the other mode's answers. */
  ids: Set<string>;
}

const UNKNOWN_DELIVERY = '00000000-0000-4000-8000-000000000000';

const get = async (app: App, key: string, url: string) => {
  const response = await app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
};

/** Collects one mode's ids through the API, after booking one appointment with its key. */
const worldOf = async (t: Test, app: App, key: string, startsAt: string): Promise<ModeWorld> => {
  const products = await get(app, key, '/api/public/products');
  const vehicles = await get(app, key, '/api/public/fleet');
  const productId = products.body.data[0]?.id as string;
  const booked = await app.inject({
    method: 'POST',
    url: '/api/public/appointments',
    headers: { 'x-api-key': key, 'garage-version': '2026-11-26' },
    payload: bookingBody(startsAt, { productIds: [productId] }),
  });
  t.equal(booked.statusCode, 201, 'booked', { body: booked.body });
  const events = await get(app, key, '/api/public/events');
  const deliveries = await get(app, key, '/api/public/webhooks/deliveries');
  const ids = new Set<string>([
    booked.json().data.id,
    ...products.body.data.map((p: { id: string }) => p.id),
    ...vehicles.body.data.map((v: { id: string }) => v.id),
    ...events.body.data.map((e: { id: string }) => e.id),
    ...deliveries.body.data.map((d: { id: string }) => d.id),
  ]);
  return {
    key,
    appointmentId: booked.json().data.id,
    productId,
    vehicleId: vehicles.body.data[0]?.id as string,
    deliveryId: deliveries.body.data[0]?.id ?? null,
    eventId: events.body.data[0]?.id as string,
    ids,
  };
};

/** The answer, and what was sent: an error may echo the id it was sent, which is no leak. */
type Probe = (app: App, own: ModeWorld, other: ModeWorld) => Promise<{ status: number; body: string; sent: string }>;

const send = async (app: App, own: ModeWorld, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
  const response = await app.inject({ method, url, headers: { 'x-api-key': own.key }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.body, sent: `${url} ${JSON.stringify(payload ?? null)}` };
};

/** How to send each key-authenticated operation with the other mode's ids. */
const probes: Record<string, Probe> = {
  listProducts: (app, own) => send(app, own, 'GET', '/api/public/products?updatedSince=2000-01-01T00:00:00Z'),
  listStock: (app, own) => send(app, own, 'GET', '/api/public/stock'),
  createAppointment: (app, own, other) =>
    send(app, own, 'POST', '/api/public/appointments', bookingBody(at(TUESDAY, '15:00'), { productIds: [other.productId] })),
  listAppointments: (app, own) => send(app, own, 'GET', '/api/public/appointments'),
  listAvailability: (app, own) => send(app, own, 'GET', `/api/public/appointments/availability?from=${TUESDAY}&to=${TUESDAY}`),
  getAppointment: (app, own, other) => send(app, own, 'GET', `/api/public/appointments/${other.appointmentId}`),
  cancelAppointment: (app, own, other) => send(app, own, 'POST', `/api/public/appointments/${other.appointmentId}/cancel`, {}),
  rescheduleAppointment: (app, own, other) =>
    send(app, own, 'POST', `/api/public/appointments/${other.appointmentId}/reschedule`, { startsAt: at(TUESDAY, '16:00') }),
  testWebhook: (app, own) => send(app, own, 'POST', '/api/public/webhooks/test', {}),
  listWebhookDeliveries: (app, own) => send(app, own, 'GET', '/api/public/webhooks/deliveries'),
  retryWebhookDelivery: (app, own, other) =>
    send(app, own, 'POST', `/api/public/webhooks/deliveries/${other.deliveryId ?? UNKNOWN_DELIVERY}/retry`, {}),
  listEvents: (app, own) => send(app, own, 'GET', '/api/public/events'),
  // Its own failed probes name the other mode's ids in their paths: the successes are what could show a foreign id.
  listRequests: (app, own) => send(app, own, 'GET', '/api/public/requests?status=2xx'),
  getRequest: (app, own) => send(app, own, 'GET', '/api/public/requests/no-such-request'),
  listVehicles: (app, own) => send(app, own, 'GET', '/api/public/fleet'),
  getVehicle: (app, own, other) => send(app, own, 'GET', `/api/public/fleet/${other.vehicleId}`),
  createTestQuote: (app, own) =>
    send(app, own, 'POST', '/api/public/test-helpers/quotes', { customer: { name: 'Probe' }, lines: [{ label: 'Pads', quantity: 1, unitPriceCents: 100, vatRate: 20 }] }),
  setTestAppointmentStatus: (app, own, other) =>
    send(app, own, 'POST', `/api/public/test-helpers/appointments/${other.appointmentId}/status`, { status: 'completed' }),
  resetSandbox: (app, own) => send(app, own, 'POST', '/api/public/test-helpers/sandbox/reset'),
};

/** Test helpers do not exist for a live key. */
const TEST_HELPERS = new Set(['createTestQuote', 'setTestAppointmentStatus', 'resetSandbox']);

/** The operations of the document that take a key, by operationId. */
const keyOperations = (): string[] => {
  const operations: string[] = [];
  for (const item of Object.values(loadDocument().paths as Record<string, Record<string, any>>)) {
    for (const operation of Object.values(item)) {
      const security = (operation?.security ?? []) as Record<string, unknown>[];
      if (operation?.operationId && security.some((s) => 'apiKey' in s)) operations.push(operation.operationId);
    }
  }
  return operations;
};

const proveIsolation = async (t: Test, app: App, live: ModeWorld, test: ModeWorld) => {
  const operations = keyOperations();
  t.ok(operations.length >= 17, 'the document lists the key-authenticated operations');
  // The live key first: the test key's turn resets the sandbox (its test helper), after which its ids are gone.
  for (const [name, own, other] of [['live key, test ids', live, test], ['test key, live ids', test, live]] as const) {
    for (const operationId of operations) {
      const probe = probes[operationId];
      if (!probe) {
        t.fail(`${operationId} has no isolation probe`);
        continue;
      }
      const { status, body, sent } = await probe(app, own, other);
      t.not(status, 500, `${name}: ${operationId}`);
      const leaked = [...other.ids].filter((id) => body.includes(id) && !sent.includes(id));
      t.same(leaked, [], `${name}: ${operationId} shows nothing of the other mode`);
      if (status >= 400) {
        t.ok([404, 400, 409].includes(status), `${name}: ${operationId} answers ${status}`, { body });
        if (status === 400) t.match(JSON.parse(body), { code: 'INVALID_REFERENCE' }, `${name}: ${operationId}: a foreign id is unknown`);
        if (status === 409) t.match(JSON.parse(body), { code: 'WEBHOOK_NOT_CONFIGURED' }, `${name}: ${operationId}`);
      }
      if (own === live && TEST_HELPERS.has(operationId)) t.equal(status, 404, `${name}: ${operationId} does not exist in live mode`);
      if (operationId.startsWith('get') || ['cancelAppointment', 'rescheduleAppointment', 'retryWebhookDelivery', 'setTestAppointmentStatus'].includes(operationId)) {
        t.equal(status, 404, `${name}: ${operationId} of a foreign id is 404`);
      }
    }
  }
  const listed = await get(app, live.key, '/api/public/appointments');
  t.same(listed.body.data.map((a: { id: string }) => a.id), [live.appointmentId], 'the live garage holds only its own appointment');
  const testAnswer = await get(app, test.key, '/api/public/appointments');
  t.equal(testAnswer.headers['garage-mode'], 'test', 'a test-key answer says Garage-Mode: test');
  t.equal(listed.headers['garage-mode'], undefined, 'a live answer does not');
  const foreign = await get(app, test.key, `/api/public/appointments/${live.appointmentId}`);
  t.equal(foreign.headers['garage-mode'], 'test', 'errors say it too');
};

t.test('on Postgres: every operation, both directions', async (t) => {
  const clock = testClock(MONDAY_9AM);
  const { app, admin } = await build(t, { clock, env: { ...LOOPBACK_WEBHOOKS, DELIVER_WEBHOOKS: 'false' } });
  await admin.createGarage({ slug: 'live', name: 'Live garage' });
  await admin.importProducts('live', [product('A-1'), product('B-2')]);
  await admin.importStock('live', [{ sku: 'A-1', quantity: 3 }]);
  await admin.importVehicles('live', [vehicle('V-1'), vehicle('V-2')]);
  const created = await admin.createIntegration({
    garageSlug: 'live',
    name: 'Shop',
    sync: ['appointments', 'catalog', 'stock'],
    webhookUrl: 'http://127.0.0.1:9/live',
  });
  await admin.updateIntegration(created.integration.id, { testWebhookUrl: 'http://127.0.0.1:9/test' });
  const live = await worldOf(t, app, created.apiKey, at(TUESDAY, '09:00'));
  const test = await worldOf(t, app, created.sandbox.testApiKey, at(TUESDAY, '09:00'));
  t.ok(live.deliveryId && test.deliveryId, 'each mode has its own delivery');
  await t.test('public ids are their mode: a sandbox quote and lead act on the sandbox only', async (t) => {
    const sandboxSlug = created.sandbox.garage.slug;
    const quote = await admin.createQuote({ garageSlug: sandboxSlug, customerName: 'Test', lines: [{ label: 'Pads', quantity: 1, unitPriceCents: 100, vatRate: 20 }] });
    const accepted = await app.inject({ method: 'POST', url: `/api/public/quotes/${quote.token}/accept`, payload: {} });
    t.equal(accepted.statusCode, 200);
    const lead = await app.inject({
      method: 'POST',
      url: '/api/public/fleet/lead',
      payload: { vehicleId: test.vehicleId, name: 'Visitor', email: 'v@example.com', consent: true },
    });
    t.equal(lead.statusCode, 201);
    const liveFeed = (await get(app, live.key, '/api/public/events')).body.data as { type: string; livemode: boolean }[];
    const testFeed = (await get(app, test.key, '/api/public/events')).body.data as { type: string; livemode: boolean }[];
    t.ok(liveFeed.every((e) => e.livemode === true), 'live events say livemode: true');
    t.ok(testFeed.every((e) => e.livemode === false), 'sandbox events say livemode: false');
    const liveEvents = liveFeed.map((e) => e.type);
    const testEvents = testFeed.map((e) => e.type);
    t.same(liveEvents, ['appointment.created'], 'nothing of the sandbox reaches the live feed');
    t.same(testEvents.sort(), ['appointment.created', 'lead.created', 'quote.accepted']);
    const liveAppointments = await admin.listAppointments({ garageSlug: 'live', from: null, to: null, status: null });
    t.same(liveAppointments.map((a) => a.id), [live.appointmentId], '`appointment list` of the live garage shows no sandbox booking');
    const fleet = await app.inject({ method: 'GET', url: `/api/public/fleet?garageSlug=${sandboxSlug}` });
    t.same(fleet.json().data.map((v: { reference: string }) => v.reference).sort(), ['V-1', 'V-2'], 'the sandbox slug shows its copy of the fleet');
    t.notOk(fleet.json().data.some((v: { id: string }) => live.ids.has(v.id)));
  });
  await proveIsolation(t, app, live, test);
});

t.test('on the embedded database (PGlite): every operation, both directions', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'garage-sandbox-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const app = await buildApp(loadConfig({ PGLITE_DIR: join(dir, '.data', 'pglite'), LOG_LEVEL: 'silent', DELIVER_WEBHOOKS: 'false' }), {
    clock: testClock(MONDAY_9AM),
  });
  t.teardown(() => app.close());
  await app.ready();
  checkResponsesAgainstDocument(app);
  t.ok(app.demo?.testApiKey.match(/^[0-9a-f]{32}$/), 'the demo has a test key beside its live key');
  const credentials = JSON.parse(await readFile(app.demo?.credentialsFile as string, 'utf8'));
  const [demo] = credentials.integrations;
  t.match(demo, { apiKey: app.demo?.apiKey, testApiKey: app.demo?.testApiKey, sandboxGarageSlug: /^demo-sandbox-/ });
  const live = await worldOf(t, app, demo.apiKey, at(TUESDAY, '09:00'));
  const test = await worldOf(t, app, demo.testApiKey, at(TUESDAY, '09:00'));
  await proveIsolation(t, app, live, test);
});
