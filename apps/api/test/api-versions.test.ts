import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { startReceiver } from '@garage/webhook-delivery/testing';
import { API_VERSIONS, makeRegistry } from '@garage/versions';
import { Webhook } from 'standardwebhooks';
import t from 'tap';
import { build, FIRST_VERSION, LATEST_VERSION, seedGarage, UUID } from './helper.js';

/**
 * API versions end to end (docs/reference/contract.md §8, docs/connectors/versions.md): every endpoint whose shape differs, at
 * both versions, chosen by the pin or the header; webhooks and the events feed rendered at the receiver's pin when
 * sent or listed; idempotent replays rendered at the replaying request's version; the header on every response.
 */
t.test('API versions', async (t) => {
  // /flaky fails until the test lets it answer, so that its deliveries stay queued (the next retry is an hour away).
  let flakyDown = true;
  const receiver = await startReceiver((request, response) => {
    response.writeHead(request.path === '/flaky' && flakyDown ? 503 : 204).end();
  });
  t.teardown(receiver.close);
  const built = await build(t, {
    // A pin change is seen by the next request (the cache's window is 5 s otherwise).
    keyCacheTtlMs: 1,
    env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128', WEBHOOK_RETRY_SCHEDULE: '1h' },
  });
  const { app, admin } = built;
  const garage = await seedGarage(admin);
  const integration = async (name: string, apiVersion: string, webhook: string | null) =>
    admin.createIntegration({
      garageSlug: garage.slug,
      name,
      sync: ['appointments'],
      webhookUrl: webhook === null ? null : `${receiver.url}${webhook}`,
      apiVersion,
    });
  const old = await integration('built in 2026-11-21', FIRST_VERSION, '/old');
  const recent = await integration('built later', LATEST_VERSION, '/new');
  const flaky = await integration('flaky receiver', FIRST_VERSION, '/flaky');
  const upgrader = await integration('upgrades mid-retry', FIRST_VERSION, null);
  await app.ready();

  const call = (method: 'GET' | 'POST', url: string, { key, version, body, headers = {} }: { key?: string; version?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    app.inject({
      method,
      url: `/api/public${url}`,
      headers: { ...(key ? { 'x-api-key': key } : {}), ...(version ? { 'garage-version': version } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  const from = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const slots = (await call('GET', `/appointments/availability?from=${from}&to=${to}`, { key: old.apiKey })).json().data as { startsAt: string }[];
  let nextSlot = 0;
  const booking = () => ({ startsAt: slots[nextSlot++]!.startsAt, customer: { name: 'Jeanne Martin', email: 'jeanne@example.com' } });

  t.test('POST /appointments: the pin decides, the header overrides it', async (t) => {
    const pinnedOld = await call('POST', '/appointments', { key: old.apiKey, body: booking() });
    t.equal(pinnedOld.statusCode, 201);
    t.equal(pinnedOld.headers['garage-version'], FIRST_VERSION);
    t.match(pinnedOld.json(), { success: true, appointmentId: UUID });
    t.same(Object.keys(pinnedOld.json()).sort(), ['appointmentId', 'success'], '2026-11-21 exactly');

    const pinnedNew = await call('POST', '/appointments', { key: recent.apiKey, body: booking() });
    t.equal(pinnedNew.headers['garage-version'], LATEST_VERSION);
    t.same(Object.keys(pinnedNew.json()), ['data']);
    t.match(pinnedNew.json().data, { id: UUID, status: 'booked', customer: { name: 'Jeanne Martin' }, integrationId: recent.integration.id });

    const askedNew = await call('POST', '/appointments', { key: old.apiKey, version: LATEST_VERSION, body: booking() });
    t.equal(askedNew.headers['garage-version'], LATEST_VERSION);
    t.match(askedNew.json(), { data: { id: UUID, status: 'booked' } });
    const askedOld = await call('POST', '/appointments', { key: recent.apiKey, version: FIRST_VERSION, body: booking() });
    t.equal(askedOld.headers['garage-version'], FIRST_VERSION);
    t.match(askedOld.json(), { success: true, appointmentId: UUID });
  });

  t.test('POST /appointments/:id/cancel at each version', async (t) => {
    const { appointmentId: first } = (await call('POST', '/appointments', { key: old.apiKey, body: booking() })).json();
    const { appointmentId: second } = (await call('POST', '/appointments', { key: old.apiKey, body: booking() })).json();
    const atOld = await call('POST', `/appointments/${first}/cancel`, { key: old.apiKey, body: { reason: 'called' } });
    t.equal(atOld.statusCode, 200);
    t.same(atOld.json(), { ok: true, status: 'cancelled' });
    const atNew = await call('POST', `/appointments/${second}/cancel`, { key: recent.apiKey, body: { reason: 'called' } });
    t.equal(atNew.statusCode, 200);
    t.match(atNew.json(), { data: { id: second, status: 'cancelled', cancellationReason: 'called', cancelledAt: String } });
  });

  let leadId = '';
  t.test('POST /fleet/lead: public, so the oldest version unless the header asks', async (t) => {
    const lead = { vehicleId: garage.vehicleIds['V-1'], name: 'Paul', email: 'paul@example.com', consent: true };
    const oldest = await call('POST', '/fleet/lead', { body: lead });
    t.equal(oldest.statusCode, 201);
    t.equal(oldest.headers['garage-version'], FIRST_VERSION);
    t.same(oldest.json(), { ok: true });
    const newest = await call('POST', '/fleet/lead', { version: LATEST_VERSION, body: { ...lead, name: 'Anne' } });
    t.equal(newest.statusCode, 201);
    t.equal(newest.headers['garage-version'], LATEST_VERSION);
    t.match(newest.json(), { data: { id: UUID, vehicleId: garage.vehicleIds['V-1'], createdAt: String } });
    t.same(Object.keys(newest.json().data).sort(), ['createdAt', 'id', 'vehicleId']);
    leadId = newest.json().data.id;
  });

  t.test('quote accept and refuse at each version', async (t) => {
    const quote = async () =>
      (
        await admin.createQuote({
          garageSlug: garage.slug,
          customerName: 'Jeanne',
          lines: [{ label: 'Pads', quantity: 1, unitPriceCents: 4500, vatRate: 20 }],
          expiresAt: new Date(Date.now() + 86_400_000),
        })
      ).token;
    const [a, b, c, d] = [await quote(), await quote(), await quote(), await quote()];
    t.same((await call('POST', `/quotes/${a}/accept`)).json(), { ok: true, status: 'accepted' });
    t.same((await call('POST', `/quotes/${b}/refuse`)).json(), { ok: true, status: 'refused' });
    const accepted = await call('POST', `/quotes/${c}/accept`, { version: LATEST_VERSION, body: { signerName: 'Jeanne' } });
    t.match(accepted.json(), { data: { status: 'accepted', customerName: 'Jeanne', decidedAt: String, lines: [{ label: 'Pads' }] } });
    const refused = await call('POST', `/quotes/${d}/refuse`, { version: LATEST_VERSION });
    t.match(refused.json(), { data: { status: 'refused', decidedAt: String } });
  });

  t.test('lead.created is delivered at each receiver\'s pin, signed over the body it was sent as', async (t) => {
    await receiver.waitFor(3);
    const sentTo = async (path: string) => {
      for (let i = 0; i < 200; i++) {
        const found = receiver.received.find((r) => r.path === path && JSON.parse(r.body).data?.id === leadId);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no lead.created for ${path}`);
    };
    const toOld = await sentTo('/old');
    const toNew = await sentTo('/new');
    t.equal(toOld.headers['webhook-id'], toNew.headers['webhook-id'], 'one event, rendered twice');
    const atOld = new Webhook(old.webhookSecret).verify(toOld.body, toOld.headers) as Record<string, any>;
    t.match(atOld, { type: 'lead.created', apiVersion: FIRST_VERSION, data: { id: leadId, vehicleId: garage.vehicleIds['V-1'], vehicleReference: 'V-1', name: 'Anne' } });
    t.notOk('vehicle' in atOld.data);
    const atNew = new Webhook(recent.webhookSecret).verify(toNew.body, toNew.headers) as Record<string, any>;
    t.match(atNew, { type: 'lead.created', apiVersion: LATEST_VERSION, data: { id: leadId, name: 'Anne' } });
    t.same(atNew.data.vehicle, { id: garage.vehicleIds['V-1'], reference: 'V-1', make: 'Peugeot', model: '208', year: 2021 });
    t.notOk('vehicleId' in atNew.data);
  });

  t.test('GET /events renders each event at the version the request is served at', async (t) => {
    const leadOf = (res: Awaited<ReturnType<typeof call>>) => res.json().data.find((e: { data: { id: string } }) => e.data.id === leadId);
    const pinned = await call('GET', '/events?type=lead.created', { key: old.apiKey });
    t.equal(pinned.headers['garage-version'], FIRST_VERSION);
    t.match(leadOf(pinned), { type: 'lead.created', apiVersion: FIRST_VERSION, data: { vehicleId: garage.vehicleIds['V-1'], vehicleReference: 'V-1' } });
    const asked = await call('GET', '/events?type=lead.created', { key: old.apiKey, version: LATEST_VERSION });
    t.match(leadOf(asked), { apiVersion: LATEST_VERSION, data: { vehicle: { reference: 'V-1', make: 'Peugeot' } } });
    t.notOk('vehicleId' in leadOf(asked).data);
  });

  t.test('a pin change reaches deliveries already queued; retry answers at each version', async (t) => {
    const failed = () => receiver.received.filter((r) => r.path === '/flaky' && JSON.parse(r.body).data?.id === leadId);
    for (let i = 0; i < 200 && failed().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    t.match(JSON.parse(failed()[0]!.body), { apiVersion: FIRST_VERSION, data: { vehicleReference: 'V-1' } }, 'first attempt at the old pin');
    const event = (await call('GET', '/events?type=lead.created', { key: flaky.apiKey })).json().data.find((e: { data: { id: string } }) => e.data.id === leadId);
    const pending = (await call('GET', '/webhooks/deliveries?status=pending&type=lead.created', { key: flaky.apiKey })).json().data;
    const queued = pending.find((d: { eventId: string }) => d.eventId === event.id);
    t.ok(queued, 'the delivery waits for its next attempt');
    flakyDown = false;

    await admin.updateIntegration(flaky.integration.id, { apiVersion: LATEST_VERSION });
    const retried = await call('POST', `/webhooks/deliveries/${queued.id}/retry`, { key: flaky.apiKey });
    t.equal(retried.statusCode, 202);
    t.equal(retried.headers['garage-version'], LATEST_VERSION, 'the new pin serves requests too');
    t.match(retried.json(), { data: { id: queued.id, eventId: queued.eventId, type: 'lead.created', status: 'pending' } });
    for (let i = 0; i < 200 && failed().length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const again = failed()[1]!;
    t.equal(again.headers['webhook-id'], failed()[0]!.headers['webhook-id'], 'the same event');
    const body = new Webhook(flaky.webhookSecret).verify(again.body, again.headers) as Record<string, any>;
    t.match(body, { apiVersion: LATEST_VERSION, data: { vehicle: { reference: 'V-1' } } }, 'sent at the pin of the moment');

    const atOld = await call('POST', `/webhooks/deliveries/${queued.id}/retry`, { key: flaky.apiKey, version: FIRST_VERSION });
    t.equal(atOld.statusCode, 202);
    t.same(atOld.json(), { ok: true });
  });

  t.test('an idempotent replay answers at the version of the replaying request', async (t) => {
    const body = booking();
    const headers = { 'idempotency-key': 'upgrade-mid-retry' };
    const first = await call('POST', '/appointments', { key: upgrader.apiKey, body, headers });
    t.equal(first.statusCode, 201);
    const { appointmentId } = first.json();
    t.match(first.json(), { success: true, appointmentId: UUID });

    await admin.updateIntegration(upgrader.integration.id, { apiVersion: LATEST_VERSION });
    const replayed = await call('POST', '/appointments', { key: upgrader.apiKey, body, headers });
    t.equal(replayed.statusCode, 201);
    t.equal(replayed.headers['idempotent-replayed'], 'true');
    t.equal(replayed.headers['garage-version'], LATEST_VERSION);
    t.match(replayed.json(), { data: { id: appointmentId, status: 'booked' } }, 'the same appointment, in the shape now asked for');

    const back = await call('POST', '/appointments', { key: upgrader.apiKey, body, headers, version: FIRST_VERSION });
    t.equal(back.headers['idempotent-replayed'], 'true');
    t.same(back.json(), { success: true, appointmentId });
  });

  t.test('an unknown Garage-Version is 400 VERSION_UNSUPPORTED listing the supported versions', async (t) => {
    for (const [url, key] of [['/products', garage.keys.all], ['/quotes/whatever', undefined]] as const) {
      const res = await call('GET', url, { key, version: '2020-01-01' });
      t.equal(res.statusCode, 400, url);
      t.equal(res.headers['garage-version'], FIRST_VERSION);
      t.match(res.json(), { code: 'VERSION_UNSUPPORTED', error: /2020-01-01/ });
      t.same(res.json().details.map((d: { message: string }) => d.message), [FIRST_VERSION, LATEST_VERSION]);
    }
  });

  t.test('every response under /api/public says its version: 304, 401, 404, 405, 400', async (t) => {
    const page = await call('GET', '/products', { key: garage.keys.all });
    const notModified = await call('GET', '/products', { key: garage.keys.all, headers: { 'if-none-match': String(page.headers.etag) } });
    t.equal(notModified.statusCode, 304);
    const responses = [
      notModified,
      await call('GET', '/products', { key: 'f'.repeat(32) }),
      await call('GET', '/no-such-route'),
      await app.inject({ method: 'DELETE', url: '/api/public/products' }),
      await call('GET', '/products?limit=0', { key: garage.keys.all }),
      await call('GET', '/fleet?garageSlug=acme'),
      await call('GET', '/openapi.json'),
    ];
    t.same(responses.map((r) => r.statusCode), [304, 401, 404, 405, 400, 200, 200]);
    for (const res of responses) t.equal(res.headers['garage-version'], FIRST_VERSION, `${res.statusCode}`);
    t.equal((await call('GET', '/products', { key: recent.apiKey, version: LATEST_VERSION })).statusCode, 401, 'no catalog toggle');
    const toggleOff = await call('GET', '/products', { key: recent.apiKey });
    t.equal(toggleOff.statusCode, 401);
    t.equal(toggleOff.headers['garage-version'], LATEST_VERSION, 'a valid key whose toggle is off: its 401 at the pin');
    t.equal((await call('GET', '/fleet', { key: recent.apiKey })).headers['garage-version'], LATEST_VERSION, 'a keyed fleet read: the pin');
    t.notOk((await app.inject({ method: 'GET', url: '/health/live' })).headers['garage-version'], 'outside /api/public: none');
  });

  t.test('a request the HTTP parser refuses gets the header too', async (t) => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = createConnection({ port: Number(port), host: '127.0.0.1' });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('GET /api/public/products HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n');
    });
    t.match(raw, /^HTTP\/1\.1 400 /);
    t.match(raw, new RegExp(`\\r\\ngarage-version: ${FIRST_VERSION}\\r\\n`, 'i'));
  });

  t.test('an absolute-form request line is versioned like any other: the routed path decides', async (t) => {
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const send = (target: string, headers: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = createConnection({ port, host: '127.0.0.1' });
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('utf8')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`);
      });
    const products = `http://api.example/api/public/products`;
    const unsupported = await send(products, `x-api-key: ${garage.keys.all}\r\ngarage-version: 2020-01-01\r\n`);
    t.match(unsupported, /^HTTP\/1\.1 400 /, 'an unsupported version is refused');
    t.match(unsupported, /VERSION_UNSUPPORTED/);
    const pinned = await send('http://api.example/api/public/appointments?limit=1', `x-api-key: ${recent.apiKey}\r\n`);
    t.match(pinned, /^HTTP\/1\.1 200 /);
    t.match(pinned, new RegExp(`\r\ngarage-version: ${LATEST_VERSION}\r\n`, 'i'), 'the pin is said');
    const asked = await send(`${products}?limit=1`, `x-api-key: ${garage.keys.all}\r\ngarage-version: ${LATEST_VERSION}\r\n`);
    t.match(asked, /^HTTP\/1\.1 200 /);
    t.match(asked, new RegExp(`\r\ngarage-version: ${LATEST_VERSION}\r\n`, 'i'), 'the header asked for is honoured');
    const missing = await send('http://api.example/api/public/no-such-route', '');
    t.match(missing, new RegExp(`\r\ngarage-version: ${FIRST_VERSION}\r\n`, 'i'), 'a 404 under /api/public too');
  });

  t.test('GET /openapi.json?version= serves the committed document of each version', async (t) => {
    const committed = (name: string) => JSON.parse(readFileSync(new URL(`../../../openapi/${name}.json`, import.meta.url), 'utf8'));
    t.same((await call('GET', '/openapi.json')).json(), committed('openapi'), 'the latest by default');
    t.equal(committed('openapi').info.version, LATEST_VERSION);
    for (const version of [FIRST_VERSION, LATEST_VERSION]) {
      t.same((await call('GET', `/openapi.json?version=${version}`)).json(), committed(version), version);
    }
    const unknown = await call('GET', '/openapi.json?version=1999-01-01');
    t.equal(unknown.statusCode, 400);
    t.equal(unknown.json().code, 'VERSION_UNSUPPORTED');
  });

  t.test('requests are counted per version', async (t) => {
    const metrics = await app.metrics.registry.getSingleMetricAsString('http_requests_by_version_total');
    t.match(metrics, new RegExp(`http_requests_by_version_total\\{version="${FIRST_VERSION}",deprecated="false"\\} \\d+`));
    t.match(metrics, new RegExp(`http_requests_by_version_total\\{version="${LATEST_VERSION}",deprecated="false"\\} \\d+`));
  });
});

t.test('a deprecated version answers with Deprecation, Sunset and a Link to the changelog', async (t) => {
  const registry = makeRegistry({
    first: FIRST_VERSION,
    changes: API_VERSIONS.versions.flatMap((v) => v.changes),
    deprecations: { [FIRST_VERSION]: { since: '2026-11-26', sunsetAt: '2027-11-26' } },
  });
  const { app, admin } = await build(t, { env: { DELIVER_WEBHOOKS: 'false' }, apiVersions: registry });
  const garage = await seedGarage(admin);
  await app.ready();
  // Chained inject: the committed documents describe the real registry, where nothing is deprecated yet.
  const res = await app.inject().get('/api/public/products').headers({ 'x-api-key': garage.keys.all }).end();
  t.equal(res.statusCode, 200);
  t.equal(res.headers.deprecation, `@${Date.UTC(2026, 10, 26) / 1000}`, 'RFC 9745: @ and Unix seconds');
  t.equal(res.headers.sunset, 'Fri, 26 Nov 2027 00:00:00 GMT', 'RFC 8594: an HTTP-date');
  t.equal(res.headers.link, '</api/public/changelog>; rel="deprecation"; type="text/markdown"');

  const byQuery = await app.inject().get(`/api/public/products?apiKey=${garage.keys.all}`).end();
  t.equal(byQuery.headers.deprecation, `@${Date.UTC(2026, 10, 26) / 1000}`, 'the version date wins over the bare flag of the query key');
  t.match(byQuery.headers.link, /<\/api\/public\/docs>; rel="deprecation".*, <\/api\/public\/changelog>; rel="deprecation"/, 'both links');

  const latest = await app.inject().get('/api/public/products').headers({ 'x-api-key': garage.keys.all, 'garage-version': LATEST_VERSION }).end();
  t.notOk(latest.headers.deprecation);
  t.notOk(latest.headers.sunset);

  const changelog = await app.inject().get('/api/public/changelog').end();
  t.equal(changelog.statusCode, 200);
  t.match(changelog.headers['content-type'], /text\/markdown/);
  t.match(changelog.body, /## 2026-11-21\n\nDeprecated since 2026-11-26; sunset on 2027-11-26\./);

  const metrics = await app.metrics.registry.getSingleMetricAsString('http_requests_by_version_total');
  t.match(metrics, `http_requests_by_version_total{version="${FIRST_VERSION}",deprecated="true"} 3`, 'two reads and the changelog');
  t.match(metrics, `http_requests_by_version_total{version="${LATEST_VERSION}",deprecated="false"} 1`);
});
