import t from 'tap';
import { testClock } from '@garage/domain/testing';
import { at, bookingBody, createBookingGarage, MONDAY_9AM, TUESDAY } from './appointments-support.js';
import { build, LogCapture, seedGarage } from './helper.js';

/**
 * docs/reference/contract.md §1: secrets never reach a log line. Every endpoint is driven with API keys (valid, unknown, revoked),
 * quote tokens, webhook secrets and Idempotency-Keys in every position a client can put them (header, query in every
 * spelling the parser accepts, path, body), at LOG_LEVEL=trace, and no log line may hold any of them.
 */
t.test('no key, token, webhook secret or idempotency scope reaches the logs, at trace level', async (t) => {
  const logs = new LogCapture();
  const { app, admin } = await build(t, { logs, clock: testClock(MONDAY_9AM), env: { LOG_LEVEL: 'trace' } });
  const garage = await seedGarage(admin);
  const booking = await createBookingGarage(admin);
  const hooked = await admin.createIntegration({ garageSlug: garage.slug, name: 'hooks', sync: ['appointments'], webhookUrl: 'http://127.0.0.1:9/hooks' });
  const revoked = await admin.createIntegration({ garageSlug: garage.slug, name: 'revoked', sync: ['catalog'], webhookUrl: null });
  await admin.revokeIntegration(revoked.integration.id);
  const quote = await admin.createQuote({
    garageSlug: garage.slug,
    customerName: 'Jeanne',
    lines: [{ label: 'Pads', quantity: 1, unitPriceCents: 5000, vatRate: 20 }],
  });
  const unknownKey = 'f'.repeat(32);
  const secrets = [garage.keys.all, garage.keys.catalog, booking.shop.key, hooked.apiKey, hooked.webhookSecret, revoked.apiKey, unknownKey, quote.token];

  const keyed = (key: string) => [
    { headers: { 'x-api-key': key } },
    { query: `apiKey=${key}` },
    { query: `APIKEY=${key}` },
    { query: `%61piKey=${key}` },
    { query: `limit=1&apiKey=${key}&apiKey=${unknownKey}` },
    { query: `api%4Bey=${key}`, headers: { 'x-api-key': key } },
    // Near misses a connector might send: none is read as a key, none may be logged either.
    { query: `api_key=${key}` },
    { query: `key=${key}` },
    { query: `apiKey[]=${key}` },
    { query: `apiKey%00=${key}` },
    { query: `token=${key}` },
    { query: `x-api-key=${key}` },
    { query: key },
    { query: `apiKey:${key}` },
  ];
  const send = async (method: 'GET' | 'POST', path: string, { headers = {}, query = '', body }: { headers?: Record<string, string>; query?: string; body?: unknown } = {}) =>
    app.inject({
      method,
      url: query ? `${path}?${query}` : path,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  for (const key of [garage.keys.all, garage.keys.catalog, revoked.apiKey, unknownKey]) {
    for (const position of keyed(key)) {
      for (const path of ['/api/public/products', '/api/public/stock', '/api/public/fleet', '/api/public/appointments', `/api/public/fleet/${garage.vehicleIds['V-1']}`]) {
        await send('GET', path, position);
      }
      await send('GET', '/api/public/appointments/availability', { ...position, query: `${position.query ?? ''}&from=${TUESDAY}&to=${TUESDAY}` });
      await send('GET', '/api/public/nowhere', position);
    }
  }
  const appointmentId = (await send('POST', '/api/public/appointments', {
    headers: { 'x-api-key': booking.shop.key, 'idempotency-key': booking.shop.key },
    body: bookingBody(at(TUESDAY, '09:00')),
  })).json<{ appointmentId: string }>().appointmentId;
  for (const action of ['cancel', 'reschedule']) {
    await send('POST', `/api/public/appointments/${appointmentId}/${action}`, {
      headers: { 'x-api-key': booking.shop.key, 'idempotency-key': `${booking.shop.key}-${action}` },
      query: `apiKey=${booking.shop.key}`,
      body: action === 'cancel' ? { reason: hooked.webhookSecret } : { startsAt: at(TUESDAY, '10:00') },
    });
  }
  await send('POST', '/api/public/fleet/lead', {
    headers: { 'idempotency-key': quote.token },
    body: { vehicleId: garage.vehicleIds['V-1'], name: 'Visitor', email: 'visitor@example.com', consent: true, message: `key ${garage.keys.all}` },
  });
  await send('GET', `/api/public/quotes/${quote.token}`);
  await send('GET', `/api/public/quotes/${quote.token}`, { query: `apiKey=${garage.keys.all}` });
  for (const decision of ['accept', 'refuse']) {
    await send('POST', `/api/public/quotes/${quote.token}/${decision}`, { headers: { 'idempotency-key': `k-${decision}` }, body: {} });
    await send('POST', `/api/public/quotes/${quote.token}/${decision}/`, { body: { comment: hooked.webhookSecret } });
  }
  await send('GET', `/api/public/quotes/${quote.token};apiKey=${garage.keys.all}`);
  // The same routes however the client spells the path: a percent-encoded letter, an absolute-form target, an encoded
  // slash (which no route matches).
  await send('POST', `/api/public/%71uotes/${quote.token}/accept`, { body: {} });
  await send('POST', `http://localhost/api/public/quotes/${quote.token}/accept`, { body: {} });
  await send('GET', `/api%2Fpublic/quotes/${quote.token}`);
  await send('GET', `/api/public/%71uotes/${quote.token}`);
  await send('POST', '/api/public/products', { headers: { 'x-api-key': garage.keys.all } });

  t.ok(logs.lines.length > 200, `the requests were logged (${logs.lines.length} lines)`);
  for (const secret of secrets) t.notOk(logs.text.includes(secret), `no log line holds ${secret.slice(0, 6)}…`);
  t.match(logs.text, /\/api\/public\/quotes\/\[redacted\]/, 'quote paths are logged, without their token');
});
