import t from 'tap';
import { readFileSync } from 'node:fs';
import { API_VERSION, ApiError, createClient, verifyWebhook, type ErrorCode, type WebhookEvent } from '../src/index.js';
import { startSeededApi } from './server.js';

/** Every operation of the document, through the client, against the real API process (docs/reference/contract.md §7). */
t.test('the client against a real server', async (t) => {
  const server = await startSeededApi(t);
  const api = createClient({ baseUrl: server.url, apiKey: server.apiKey });

  t.test('lists are async iterators over every page, in order; .pages() gives whole pages', async (t) => {
    const skus: string[] = [];
    for await (const product of api.products.list({ limit: 1 })) skus.push(product.sku);
    t.same(skus.sort(), ['OIL', 'PADS', 'WIPER']);
    const pages = [];
    for await (const page of api.products.list({ limit: 2 }).pages()) pages.push(page.data.length);
    t.same(pages, [2, 1]);
    const since: string[] = [];
    for await (const product of api.products.list({ updatedSince: '2000-01-01T00:00:00Z' })) since.push(product.sku);
    t.equal(since.length, 3, 'updatedSince');
    const stock = [];
    for await (const item of api.stock.list()) stock.push([item.sku, item.quantity]);
    t.same(stock.sort(), [['OIL', 12], ['PADS', 0], ['WIPER', 3]]);
    const makes = [];
    for await (const vehicle of api.fleet.list({ make: 'peugeot' })) makes.push(vehicle.make);
    t.same(makes, ['Peugeot']);
  });

  t.test('testHelpers, with a test key: reset, a quote to accept, an appointment completed; a live key gets 404', async (t) => {
    const sandbox = createClient({ baseUrl: server.url, apiKey: server.testApiKey });
    t.match(await sandbox.testHelpers.resetSandbox(), { resetAt: /T/ });
    const skus: string[] = [];
    for await (const product of sandbox.products.list()) skus.push(product.sku);
    t.same(skus.sort(), ['OIL', 'PADS', 'WIPER'], 'the reset copied the live catalog');
    const quote = await sandbox.testHelpers.createQuote({ customer: { name: 'Test' }, lines: [{ label: 'Pads', quantity: 2, unitPriceCents: 1000, vatRate: 20 }] });
    t.match(quote, { status: 'pending', totalCents: 2400 });
    t.match(await sandbox.quotes.accept(quote.token, { signerName: 'Test' }), { status: 'accepted' });
    const day = (ahead: number) => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const [slot] = await sandbox.appointments.availability({ from: day(7), to: day(14) });
    const booked = await sandbox.appointments.create({ startsAt: slot!.startsAt, customer: { name: 'Test', email: 'test@example.com' } });
    const completed = await sandbox.testHelpers.setAppointmentStatus(booked.id, { status: 'completed' });
    t.equal(completed.status, 'completed');
    const refused = await api.testHelpers.resetSandbox().catch((e: unknown) => e);
    t.ok(refused instanceof ApiError && refused.status === 404 && refused.code === 'NOT_FOUND', 'no test helper for a live key');
    const limit: ErrorCode = 'SANDBOX_LIMIT';
    t.equal(limit, 'SANDBOX_LIMIT', 'the code union knows SANDBOX_LIMIT');
  });

  t.test('fleet by key or by the public garageSlug; one vehicle; a lead', async (t) => {
    const vehicle = await api.fleet.get(server.vehicleIds['V-1']!);
    t.equal(vehicle.reference, 'V-1');
    const visitor = createClient({ baseUrl: server.url, garageSlug: 'client' });
    const references = [];
    for await (const v of visitor.fleet.list()) references.push(v.reference);
    t.same(references.sort(), ['V-1', 'V-2']);
    t.equal((await visitor.fleet.get(server.vehicleIds['V-2']!)).make, 'Renault');
    const lead = await visitor.leads.create({ vehicleId: vehicle.id, name: 'Jeanne', email: 'jeanne@example.com', consent: true });
    t.match(lead, { id: /^[0-9a-f-]{36}$/, vehicleId: vehicle.id, createdAt: /T/ }, 'the lead stored');
  });

  t.test('book from availability, read, reschedule, list, cancel', async (t) => {
    const from = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    const slots = await api.appointments.availability({ from, to, durationMinutes: 60 });
    t.ok(slots.length > 2, 'bookable slots');
    const booked = await api.appointments.create({
      startsAt: slots[0]!.startsAt,
      durationMinutes: 60,
      customer: { name: 'Jeanne Martin', email: 'jeanne@example.com' },
    });
    t.match(booked, { status: 'booked', durationMinutes: 60, customer: { name: 'Jeanne Martin' } }, 'create returns the appointment');
    const appointmentId = booked.id;
    const appointment = await api.appointments.get(appointmentId);
    t.match(appointment, { id: appointmentId, status: 'booked', durationMinutes: 60 });
    const later = slots.at(-1)!.startsAt;
    const moved = await api.appointments.reschedule(appointmentId, { startsAt: later });
    t.equal(Date.parse(moved.startsAt), Date.parse(later));
    const listed = [];
    for await (const a of api.appointments.list({ updatedSince: '2000-01-01T00:00:00Z' })) listed.push(a.id);
    t.same(listed, [appointmentId]);
    t.match(await api.appointments.cancel(appointmentId, { reason: 'customer called' }), { id: appointmentId, status: 'cancelled', cancellationReason: 'customer called' });
    const error = await api.appointments.cancel(appointmentId).catch((e: unknown) => e);
    t.ok(error instanceof ApiError);
    t.match(error, { status: 409, code: 'APPOINTMENT_NOT_CHANGEABLE', requestId: /.+/ });
  });

  t.test('errors are ApiError with the typed code, the details and the request id', async (t) => {
    const error = await api.appointments
      .create({ startsAt: 'tomorrow', customer: { name: 'x' } })
      .catch((e: unknown) => e as ApiError);
    t.ok(error instanceof ApiError);
    if (error instanceof ApiError) {
      const code: 'VALIDATION_FAILED' | ApiError['code'] = error.code;
      t.equal(code, 'VALIDATION_FAILED');
      t.equal(error.status, 400);
      t.ok(error.details?.some((d) => d.path === '/startsAt'));
    }
    const unauthorized = createClient({ baseUrl: server.url, apiKey: 'f'.repeat(32) });
    await t.rejects(unauthorized.products.list().pages()[Symbol.asyncIterator]().next(), { status: 401, code: 'UNAUTHORIZED' });
  });

  t.test('quotes: get, accept, refuse', async (t) => {
    const visitor = createClient({ baseUrl: server.url });
    const quote = await visitor.quotes.get(server.quotes.accept.token);
    t.match(quote, { status: 'pending', customerName: 'Jeanne' });
    t.match(await visitor.quotes.accept(server.quotes.accept.token, { signerName: 'Jeanne' }), { status: 'accepted' });
    t.match(await visitor.quotes.refuse(server.quotes.refuse.token), { status: 'refused' });
    await t.rejects(visitor.quotes.accept(server.quotes.refuse.token), { status: 409, code: 'QUOTE_ALREADY_PROCESSED' });
  });

  t.test('webhooks: test, deliveries, retry, events; verifyWebhook on what the server really sent', async (t) => {
    const test = await api.webhooks.test();
    t.match(test, { delivered: true, responseStatus: 204 });
    const sent = server.receiver.received.find((r) => r.headers['webhook-id'] === test.eventId)!;
    const event: WebhookEvent = verifyWebhook(server.webhookSecret, sent.headers, sent.body);
    t.equal(event.type, 'webhook.test');
    if (event.type === 'webhook.test') t.equal(event.data.integrationId, server.integrationId);
    t.throws(() => verifyWebhook(server.webhookSecret, sent.headers, `${sent.body} `), 'a changed body fails');

    // The appointment, quote and lead events of the tests above reach the receiver.
    const types = new Set<string>();
    for (let i = 0; i < 100 && types.size < 4; i++) {
      for (const r of server.receiver.received) types.add(verifyWebhook(server.webhookSecret, r.headers, r.body).type);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const received of server.receiver.received) {
      const verified = verifyWebhook(server.webhookSecret, received.headers, received.body);
      if (verified.type === 'appointment.created') t.match(verified.data.startsAt, /T/);
    }
    t.ok(types.has('appointment.created') && types.has('lead.created') && types.has('quote.accepted'));

    const events = [];
    for await (const e of api.events.list({ since: '2000-01-01T00:00:00Z' })) events.push(e);
    t.ok(events.some((e) => e.type === 'quote.refused'));
    const deliveries = [];
    for await (const d of api.webhooks.deliveries.list({ status: 'succeeded' })) deliveries.push(d);
    t.ok(deliveries.length >= 4);
    t.match(await api.webhooks.deliveries.retry(deliveries[0]!.id), { id: deliveries[0]!.id, status: 'pending' }, 'the delivery, queued again');
    await t.rejects(api.webhooks.deliveries.retry('00000000-0000-4000-8000-000000000000'), { status: 404, code: 'NOT_FOUND' });
  });

  t.test("requests: the integration's own requests, newest first, and one by its x-request-id", async (t) => {
    const failed = await api.appointments.get('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    t.ok(failed instanceof ApiError);
    const requestId = (failed as ApiError).requestId!;
    // The log is written off the request path, within about a second.
    let record = null;
    for (const until = Date.now() + 10_000; record === null && Date.now() < until; ) {
      record = await api.requests.get(requestId).catch(() => null);
      if (record === null) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    t.match(record, { requestId, status: 404, errorCode: 'NOT_FOUND', route: '/api/public/appointments/:appointmentId', errorBody: { code: 'NOT_FOUND' } });
    const listed = [];
    for await (const r of api.requests.list({ status: '4xx', limit: 5 })) listed.push(r.requestId);
    t.ok(listed.includes(requestId));
  });

  t.test('raw is the generated client, for anything else', async (t) => {
    const { data, response } = await api.raw.GET('/api/public/products', { params: { query: { sku: 'OIL' } } });
    t.equal(response.status, 200);
    t.equal(response.headers.get('garage-version'), API_VERSION, 'every request asks for the version the types describe');
    t.equal(API_VERSION, JSON.parse(readFileSync(new URL('../../../openapi/openapi.json', import.meta.url), 'utf8')).info.version);
    t.equal(data?.data[0]?.name, 'Oil 5W30');
  });
});
