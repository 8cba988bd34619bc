import t from 'tap';
import { ipCounter } from '../src/plugins/rate-limits.js';
import { build, seedGarage, type Built, type SeededGarage } from './helper.js';

const ORIGIN = 'https://garage-website.example';
const UNKNOWN_VEHICLE = '00000000-0000-4000-8000-000000000000';
const HOUR = 3_600_000;

/** Every test below sends from its own client address, so that the per-IP limits of one do not touch another. */
let nextAddress = 1;
const freshIp = () => `198.51.100.${nextAddress++}`;

const json = (body: unknown) => ({ 'content-type': 'application/json', payload: JSON.stringify(body) });

const createQuote = async ({ admin }: Built, garage: SeededGarage, expiresAt = new Date(Date.now() + 24 * HOUR)) => {
  const { token } = await admin.createQuote({
    garageSlug: garage.slug,
    customerName: 'Jeanne Martin',
    lines: [
      { label: 'Brake pads', quantity: 2, unitPriceCents: 4500, vatRate: 20 },
      { label: 'Labour', quantity: 1.5, unitPriceCents: 6000, vatRate: 20 },
    ],
    expiresAt,
  });
  return token;
};

t.test('leads and quotes over HTTP (in-memory rate limits)', async (t) => {
  const built = await build(t);
  const { app, db } = built;
  // A route of the test's own, to exercise the counter helper that other throttles build on.
  const counter = ipCounter(app, { name: 'test-counter', max: 2, timeWindow: 60_000 });
  app.post('/test/counter/hit', async (request) => counter.hit(request));
  const garage = await seedGarage(built.admin);
  const vehicleId = garage.vehicleIds['V-1'] as string;

  const lead = (remoteAddress: string, body: unknown, headers: Record<string, string> = {}) => {
    const { 'content-type': contentType, payload } = json(body);
    return app.inject({ method: 'POST', url: '/api/public/fleet/lead', remoteAddress, headers: { 'content-type': contentType, ...headers }, payload });
  };
  const decide = (remoteAddress: string, token: string, decision: 'accept' | 'refuse', body?: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: `/api/public/quotes/${token}/${decision}`,
      remoteAddress,
      ...(body === undefined ? { headers } : { headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) }),
    });

  t.test('a lead is stored against the vehicle garage', async (t) => {
    const res = await lead(freshIp(), { vehicleId, name: 'Paul Durand', email: 'paul@example.com', message: 'Still available?', consent: true });
    t.equal(res.statusCode, 201);
    t.same(res.json(), { ok: true });
    t.equal(res.headers['ratelimit-limit'], '5');
    t.equal(res.headers['ratelimit-remaining'], '4');
    const rows = await db.handle.db.selectFrom('leads').innerJoin('garages', 'garages.id', 'leads.garage_id').select(['garages.slug', 'leads.name', 'leads.email', 'leads.phone', 'leads.vehicle_id']).execute();
    t.same(rows, [{ slug: garage.slug, name: 'Paul Durand', email: 'paul@example.com', phone: null, vehicle_id: vehicleId }]);
    const phoneOnly = await lead(freshIp(), { vehicleId, name: 'Anne', phone: '+33 6 12 34 56 78', consent: true });
    t.equal(phoneOnly.statusCode, 201);
  });

  t.test('lead errors', async (t) => {
    const ip = freshIp();
    const sold = await lead(ip, { vehicleId: garage.vehicleIds['V-SOLD'], name: 'Paul', email: 'paul@example.com', consent: true });
    t.equal(sold.statusCode, 404);
    t.equal(sold.json().code, 'NOT_FOUND');
    const unknown = await lead(ip, { vehicleId: UNKNOWN_VEHICLE, name: 'Paul', email: 'paul@example.com', consent: true });
    t.equal(unknown.statusCode, 404);
    const noContact = await lead(ip, { vehicleId, name: 'Paul', consent: true });
    t.equal(noContact.statusCode, 400);
    t.same(noContact.json().details, [{ path: '/email', message: 'must have an email or a phone' }]);
    const typo = await lead(ip, { vehicleId, name: 'Paul', email: 'paul@example.com', consent: true, mesage: 'typo' });
    t.equal(typo.statusCode, 400);
    t.same(typo.json().details.map((d: { path: string }) => d.path), ['/mesage']);
    const noConsent = await lead(freshIp(), { vehicleId, name: 'Paul', email: 'paul@example.com', consent: false });
    t.equal(noConsent.statusCode, 400);
    t.same(noConsent.json().details.map((d: { path: string }) => d.path), ['/consent']);
    t.equal(noConsent.json().code, 'VALIDATION_FAILED');
    t.equal(await db.handle.db.selectFrom('leads').select('id').where('name', '=', 'Paul').executeTakeFirst(), undefined, 'nothing stored');
  });

  t.test('the sixth lead request of a minute from one IP gets 429, 404s and 400s included', async (t) => {
    const ip = freshIp();
    const statuses: number[] = [];
    const remaining: (string | undefined)[] = [];
    for (const body of [
      { vehicleId: UNKNOWN_VEHICLE, name: 'A', email: 'a@example.com', consent: true },
      { vehicleId, name: 'A', consent: true },
      { vehicleId, name: 'A', email: 'a@example.com', consent: true },
      { vehicleId: UNKNOWN_VEHICLE, name: 'A', email: 'a@example.com', consent: true },
      { nonsense: true },
    ]) {
      const res = await lead(ip, body);
      statuses.push(res.statusCode);
      remaining.push(res.headers['ratelimit-remaining'] as string | undefined);
    }
    t.same(statuses, [404, 400, 201, 404, 400]);
    t.same(remaining, ['4', '3', '2', '1', '0']);
    const limited = await lead(ip, { vehicleId, name: 'A', email: 'a@example.com', consent: true }, { origin: ORIGIN });
    t.equal(limited.statusCode, 429);
    t.same(limited.json(), { error: limited.json().error, code: 'RATE_LIMITED' });
    t.match(limited.json().error, /Too many requests/);
    t.equal(limited.headers['ratelimit-limit'], '5');
    t.equal(limited.headers['ratelimit-remaining'], '0');
    const retryAfter = Number(limited.headers['retry-after']);
    t.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60, `Retry-After in seconds (${retryAfter})`);
    t.equal(limited.headers['ratelimit-reset'], limited.headers['retry-after']);
    t.equal(limited.headers['access-control-allow-origin'], '*', 'a browser can read the 429');
    t.equal(limited.headers['x-request-id'] !== undefined, true);

    const otherIp = await lead(freshIp(), { vehicleId, name: 'B', email: 'b@example.com', consent: true });
    t.equal(otherIp.statusCode, 201, 'another IP has its own quota');
    const otherEndpoint = await decide(ip, 'no-such-token', 'accept');
    t.equal(otherEndpoint.statusCode, 404, 'the quote endpoints have their own quota');
  });

  t.test('without TRUST_PROXY a spoofed X-Forwarded-For gives no fresh quota', async (t) => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await lead(ip, { vehicleId: UNKNOWN_VEHICLE, name: 'A', email: 'a@example.com', consent: true }, { 'x-forwarded-for': `203.0.113.${i}` });
      statuses.push(res.statusCode);
    }
    t.same(statuses, [404, 404, 404, 404, 404, 429]);
  });

  t.test('a quote reads with its lines, an ETag and Cache-Control', async (t) => {
    const token = await createQuote(built, garage);
    const res = await app.inject({ method: 'GET', url: `/api/public/quotes/${token}`, headers: { origin: ORIGIN } });
    t.equal(res.statusCode, 200);
    const { number, expiresAt, ...data } = res.json().data;
    t.match(number, /^Q-\d{4}-0001$/);
    t.match(expiresAt, /^\d{4}-\d{2}-\d{2}T/);
    t.same(
      data,
      {
        status: 'pending',
        customerName: 'Jeanne Martin',
        lines: [
          { label: 'Brake pads', quantity: 2, unitPriceCents: 4500, vatRate: 20, totalCents: 10800 },
          { label: 'Labour', quantity: 1.5, unitPriceCents: 6000, vatRate: 20, totalCents: 10800 },
        ],
        totalCents: 21600,
        currency: 'EUR',
        decidedAt: null,
      },
    );
    t.equal(res.headers['cache-control'], 'private, no-cache');
    t.equal(res.headers['access-control-allow-origin'], '*');
    t.notOk(res.headers['ratelimit-limit'], 'reads are not rate limited');
    const etag = res.headers.etag as string;
    t.match(etag, /^"[^"]+"$/, 'a strong ETag');
    const again = await app.inject({ method: 'GET', url: `/api/public/quotes/${token}`, headers: { 'if-none-match': etag } });
    t.equal(again.statusCode, 304);
    t.equal(again.body, '');

    const unknown = await app.inject({ method: 'GET', url: '/api/public/quotes/no-such-token' });
    t.equal(unknown.statusCode, 404);
    t.equal(unknown.json().code, 'NOT_FOUND');
  });

  t.test('accept: once, with or without a body; any later decision is QUOTE_ALREADY_PROCESSED', async (t) => {
    const ip = freshIp();
    const token = await createQuote(built, garage);
    const accepted = await decide(ip, token, 'accept', { signerName: 'Jeanne Martin', comment: 'Go ahead' }, { origin: ORIGIN });
    t.equal(accepted.statusCode, 200);
    t.same(accepted.json(), { ok: true, status: 'accepted' });
    t.equal(accepted.headers['access-control-allow-origin'], '*');
    t.equal(accepted.headers['ratelimit-limit'], '5');
    const read = await app.inject({ method: 'GET', url: `/api/public/quotes/${token}` });
    t.equal(read.json().data.status, 'accepted');
    t.match(read.json().data.decidedAt, /^\d{4}-\d{2}-\d{2}T/);
    const row = await db.handle.db.selectFrom('quotes').select(['signer_name', 'comment']).where('status', '=', 'accepted').executeTakeFirstOrThrow();
    t.same(row, { signer_name: 'Jeanne Martin', comment: 'Go ahead' });

    const repeat = await decide(ip, token, 'accept');
    t.equal(repeat.statusCode, 409);
    t.same(repeat.json(), { error: repeat.json().error, code: 'QUOTE_ALREADY_PROCESSED' });
    const refuse = await decide(ip, token, 'refuse', { reason: 'Too late' });
    t.equal(refuse.statusCode, 409);
    t.equal(refuse.json().code, 'QUOTE_ALREADY_PROCESSED');
  });

  t.test('absent, empty and {} bodies all accept or refuse', async (t) => {
    const ip = freshIp();
    const noBody = await decide(ip, await createQuote(built, garage), 'accept');
    t.equal(noBody.statusCode, 200, 'no body, no Content-Type');
    const emptyJson = await app.inject({
      method: 'POST',
      url: `/api/public/quotes/${await createQuote(built, garage)}/accept`,
      remoteAddress: ip,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    t.equal(emptyJson.statusCode, 200, 'Content-Type application/json with an empty body');
    const emptyObject = await decide(ip, await createQuote(built, garage), 'refuse', {});
    t.same([emptyObject.statusCode, emptyObject.json()], [200, { ok: true, status: 'refused' }]);
    const refusedWithReason = await decide(ip, await createQuote(built, garage), 'refuse', { reason: 'Too expensive' });
    t.equal(refusedWithReason.statusCode, 200);
    const reasons = await db.handle.db.selectFrom('quotes').select('refuse_reason').where('status', '=', 'refused').execute();
    t.same(reasons.map((r) => r.refuse_reason).sort(), ['Too expensive', null]);

    const ip2 = freshIp();
    const token = await createQuote(built, garage);
    const typo = await decide(ip2, token, 'accept', { signer: 'x' });
    t.equal(typo.statusCode, 400);
    t.same(typo.json().details.map((d: { path: string }) => d.path), ['/signer']);
    const malformed = await app.inject({
      method: 'POST',
      url: `/api/public/quotes/${token}/refuse`,
      remoteAddress: ip2,
      headers: { 'content-type': 'application/json' },
      payload: '{"reason": ',
    });
    t.equal(malformed.statusCode, 400);
    t.equal(malformed.json().code, 'VALIDATION_FAILED');
    const tooLarge = await decide(ip2, token, 'accept', { comment: 'x'.repeat(70 * 1024) });
    t.equal(tooLarge.statusCode, 413, 'the body limit still applies');
    const notJson = await app.inject({
      method: 'POST',
      url: `/api/public/quotes/${token}/accept`,
      remoteAddress: ip2,
      headers: { 'content-type': 'text/plain' },
      payload: 'yes',
    });
    t.equal(notJson.statusCode, 415);
    const read = await app.inject({ method: 'GET', url: `/api/public/quotes/${token}` });
    t.equal(read.json().data.status, 'pending', 'none of these decided anything');
  });

  t.test('an expired quote reads as expired and cannot be decided', async (t) => {
    const ip = freshIp();
    const token = await createQuote(built, garage, new Date(Date.now() - HOUR));
    const read = await app.inject({ method: 'GET', url: `/api/public/quotes/${token}` });
    t.equal(read.json().data.status, 'expired');
    for (const decision of ['accept', 'refuse'] as const) {
      const res = await decide(ip, token, decision);
      t.equal(res.statusCode, 409, decision);
      t.same(res.json(), { error: res.json().error, code: 'QUOTE_EXPIRED' });
    }
  });

  t.test('accept and refuse: 5 per 15 minutes per IP, all tokens sharing one counter per endpoint', async (t) => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await decide(ip, `unknown-token-${i}`, 'accept');
      t.equal(res.statusCode, 404);
      t.equal(res.headers['ratelimit-remaining'], String(4 - i));
    }
    const token = await createQuote(built, garage);
    const limited = await decide(ip, token, 'accept');
    t.equal(limited.statusCode, 429);
    t.equal(limited.json().code, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers['retry-after']);
    t.ok(retryAfter > 60 && retryAfter <= 900, `Retry-After within the 15-minute window (${retryAfter})`);
    t.equal((await app.inject({ method: 'GET', url: `/api/public/quotes/${token}` })).json().data.status, 'pending', 'the limited request did nothing');

    for (let i = 0; i < 4; i++) t.equal((await decide(ip, `unknown-token-${i}`, 'refuse')).statusCode, 404);
    const refused = await decide(ip, token, 'refuse');
    t.equal(refused.statusCode, 200, 'refuse counts separately from accept');
    t.equal(refused.headers['ratelimit-remaining'], '0');
    t.equal((await decide(ip, token, 'refuse')).statusCode, 429);
  });

  t.test('IPv6 clients are counted per /64: rotating addresses inside one allocation gains nothing', async (t) => {
    const body = { vehicleId, name: 'Rotating', email: 'rotating@example.com', consent: true };
    const answers = [];
    for (let i = 1; i <= 6; i++) answers.push((await lead(`2001:db8:5:7:${i.toString(16)}::${i}`, body)).statusCode);
    t.same(answers, [201, 201, 201, 201, 201, 429], 'six addresses of one /64 share the five leads a minute');
    t.equal((await lead('2001:db8:5:8::1', body)).statusCode, 201, 'the next /64 is another client');
    const token = await createQuote(built, garage);
    const decisions = [];
    for (let i = 1; i <= 6; i++) decisions.push((await decide(`2001:db8:6:1::${i}`, `unknown-${i}`, 'accept')).statusCode);
    t.same(decisions, [404, 404, 404, 404, 404, 429], 'the quote limits too');
    t.equal((await decide('2001:db8:6:1:ffff::9', token, 'accept')).statusCode, 429);
  });

  t.test('Idempotency-Key: a retried lead, accept or refuse replays its first answer', async (t) => {
    const ip = freshIp();
    const body = { vehicleId, name: 'Idem Potent', email: 'idem@example.com', consent: true };
    const first = await lead(ip, body, { 'idempotency-key': 'lead-1' });
    const replay = await lead(ip, body, { 'idempotency-key': 'lead-1' });
    t.same([first.statusCode, replay.statusCode], [201, 201]);
    t.same(replay.json(), { ok: true });
    t.equal(replay.headers['idempotent-replayed'], 'true');
    t.notOk(first.headers['idempotent-replayed']);
    const stored = await db.handle.db.selectFrom('leads').select('id').where('name', '=', 'Idem Potent').execute();
    t.equal(stored.length, 1, 'one lead for two requests');
    // Keys are scoped by vehicle: another website (or garage) that happens to pick the same key is not refused.
    const elsewhere = await lead(freshIp(), { ...body, vehicleId: garage.vehicleIds['V-3'] }, { 'idempotency-key': 'lead-1' });
    t.equal(elsewhere.statusCode, 201, 'the same key about another vehicle is another request');
    t.notOk(elsewhere.headers['idempotent-replayed']);
    t.equal((await db.handle.db.selectFrom('leads').select('id').where('name', '=', 'Idem Potent').execute()).length, 2);

    for (const decision of ['accept', 'refuse'] as const) {
      const token = await createQuote(built, garage);
      const key = { 'idempotency-key': `${decision}-1` };
      const once = await decide(ip, token, decision, undefined, key);
      const twice = await decide(ip, token, decision, undefined, key);
      t.same([once.statusCode, twice.statusCode], [200, 200], decision);
      t.same(twice.json(), { ok: true, status: `${decision === 'accept' ? 'accepted' : 'refused'}` });
      t.equal(twice.headers['idempotent-replayed'], 'true');
      const otherKey = await decide(freshIp(), token, decision, undefined, { 'idempotency-key': `${decision}-2` });
      t.equal(otherKey.json().code, 'QUOTE_ALREADY_PROCESSED', 'a new key is a new request');
    }
  });

  t.test('CORS preflight on the lead and quote endpoints', async (t) => {
    for (const url of ['/api/public/fleet/lead', '/api/public/quotes/some-token/accept', '/api/public/quotes/some-token/refuse', '/api/public/quotes/some-token']) {
      const res = await app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, idempotency-key' },
      });
      t.equal(res.statusCode, 204, url);
      t.equal(res.headers['access-control-allow-origin'], '*');
      t.match(res.headers['access-control-allow-methods'], /POST/);
      t.match(res.headers['access-control-allow-headers'], /Idempotency-Key/i);
      t.notOk(res.headers['ratelimit-limit'], 'preflights are not counted');
    }
    const res = await lead(freshIp(), { vehicleId: UNKNOWN_VEHICLE, name: 'A', email: 'a@example.com', consent: true }, { origin: ORIGIN });
    t.equal(res.headers['access-control-allow-origin'], '*');
    for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']) {
      t.match(res.headers['access-control-expose-headers'], header, `${header} is readable cross-origin`);
    }
  });

  t.test('ipCounter: a named per-IP counter on the rate-limit store', async (t) => {
    const ip = freshIp();
    const hit = async () => (await app.inject({ method: 'POST', url: '/test/counter/hit', remoteAddress: ip })).json();
    t.match(await hit(), { exceeded: false, remaining: 1 });
    t.match(await hit(), { exceeded: false, remaining: 0 });
    t.match(await hit(), { exceeded: true, remaining: 0 });
    const other = await app.inject({ method: 'POST', url: '/test/counter/hit', remoteAddress: freshIp() });
    t.match(other.json(), { exceeded: false, remaining: 1 }, 'each address has its own count');
    const leadQuota = await lead(ip, { vehicleId: UNKNOWN_VEHICLE, name: 'A', email: 'a@example.com', consent: true });
    t.equal(leadQuota.headers['ratelimit-remaining'], '4', 'its counts are apart from the route limits');
  });
});

t.test('TRUST_PROXY: the client IP comes from X-Forwarded-For, set by trusted proxies only', async (t) => {
  const built = await build(t, { env: { TRUST_PROXY: '127.0.0.1' } });
  const { app } = built;
  const accept = (remoteAddress: string, forwardedFor: string) =>
    app.inject({ method: 'POST', url: '/api/public/quotes/no-such-token/accept', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

  for (let i = 0; i < 5; i++) t.equal((await accept('127.0.0.1', '203.0.113.7')).statusCode, 404);
  t.equal((await accept('127.0.0.1', '203.0.113.7')).statusCode, 429, 'one client behind the proxy is limited');
  t.equal((await accept('127.0.0.1', '203.0.113.8')).statusCode, 404, 'another client behind the same proxy is not');
  t.equal((await accept('127.0.0.1', '198.51.100.1, 203.0.113.7')).statusCode, 429, 'the address the proxy saw counts, not what the client claims');

  for (let i = 0; i < 5; i++) t.equal((await accept('192.0.2.50', `10.0.0.${i}`)).statusCode, 404);
  t.equal((await accept('192.0.2.50', '10.0.0.99')).statusCode, 429, 'an untrusted peer cannot pick its address');
});

t.test('TRUST_PROXY: a forwarded entry counts as the IP address it names, ports and brackets stripped, or not at all', async (t) => {
  const { app } = await build(t, { env: { TRUST_PROXY: '127.0.0.1' } });
  const accept = (remoteAddress: string, forwardedFor: string) =>
    app.inject({ method: 'POST', url: '/api/public/quotes/no-such-token/accept', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });

  // One client, seen through load balancers that write a port: one counter, not one per source port.
  const ports = ['198.51.100.7:1001', '198.51.100.7:1002', '198.51.100.7', '198.51.100.7:1003', '198.51.100.7:1004'];
  for (const entry of ports) t.equal((await accept('127.0.0.1', entry)).statusCode, 404, entry);
  t.equal((await accept('127.0.0.1', '198.51.100.7:1005')).statusCode, 429, 'the sixth request of that client, whatever its port');
  const v6 = ['[2001:db8:1:2::7]:443', '[2001:db8:1:2::8]', '2001:db8:1:2::9', '[2001:db8:1:2::a]:80', '2001:db8:1:2::b'];
  for (const entry of v6) t.equal((await accept('127.0.0.1', entry)).statusCode, 404, entry);
  t.equal((await accept('127.0.0.1', '[2001:db8:1:2::c]:8443')).statusCode, 429, 'brackets stripped, and the /64 counted as one');

  // What is not an address is no counter of its own: the request counts as the proxy's.
  const proxy = '127.0.0.2';
  const { app: other } = await build(t, { env: { TRUST_PROXY: '127.0.0.0/8' } });
  const junk = ['unknown', 'lead-1', 'lead-2', '_hidden', 'a.b.c.d'];
  for (const entry of junk) {
    const res = await other.inject({ method: 'POST', url: '/api/public/quotes/no-such-token/accept', remoteAddress: proxy, headers: { 'x-forwarded-for': entry } });
    t.equal(res.statusCode, 404, entry);
  }
  const sixth = await other.inject({ method: 'POST', url: '/api/public/quotes/no-such-token/accept', remoteAddress: proxy, headers: { 'x-forwarded-for': 'lead-6' } });
  t.equal(sixth.statusCode, 429, 'made-up entries share the socket address counter');
});
