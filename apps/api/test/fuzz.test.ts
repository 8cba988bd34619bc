import fc from 'fast-check';
import t from 'tap';
import { ERROR_CODES } from './error-codes.js';
import { testClock } from '@garage/domain/testing';
import { at, bookingBody, createBookingGarage, MONDAY_9AM, TUESDAY } from './appointments-support.js';
import { build, seedGarage } from './helper.js';

/**
 * Property-based fuzzing of every route of the OpenAPI document (issue 13): requests are generated from each
 * operation's parameters and a valid body, then mutated (wrong types, boundary lengths, NUL and unpaired surrogates,
 * huge numbers, impossible dates, unknown and repeated parameters, wrong methods, malformed JSON, wrong content
 * types). Whatever the request, the answer is never a 5xx, every error has the contract's body and one of its codes,
 * and a 4xx writes nothing. `FUZZ_SEED` and `FUZZ_RUNS` (default: a fixed seed, 300 runs) reproduce or lengthen a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: { type?: string | string[]; format?: string; enum?: unknown[]; default?: unknown };
}
interface Operation {
  method: Method;
  path: string;
  parameters: Parameter[];
  hasBody: boolean;
}

/** Values a client can send that no field should turn into a 500. */
const NASTY: unknown[] = [
  '',
  ' ',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  'é'.repeat(300),
  'x'.repeat(70_000),
  '0000-01-01',
  '2026-02-30',
  '2026-12-01T23:59:60+01:00',
  '2026-12-01T09:00:00+01:00[Europe/Paris]',
  '0000-12-01T09:00:00Z',
  '99999-12-01T09:00:00Z',
  '9999-12-31T23:59:59+14:00',
  '-1',
  '1e309',
  '9'.repeat(40),
  'NaN',
  'null',
  '00000000-0000-0000-0000-000000000000',
  "'; drop table appointments; --",
  '%00',
  0,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
  true,
  null,
  [],
  {},
  ['a', 'b'],
  { $gt: '' },
];

const nasty = fc.constantFrom(...NASTY);

/** JSON nested thousands deep (about 10 KB): whatever walks it must not recurse. */
const DEEP_ARRAY = `${'['.repeat(5000)}${']'.repeat(5000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`;

/** Percent-encodes any string, unpaired surrogates included (as their WTF-8 bytes, which are not valid UTF-8). */
const encodeSegment = (value: string): string =>
  [...value]
    .map((char) => {
      try {
        return encodeURIComponent(char);
      } catch {
        const code = char.charCodeAt(0);
        return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      }
    })
    .join('');
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

t.test('no request, however malformed, gets a 5xx, an off-contract error body, or writes on a 4xx', async (t) => {
  // Tuesday is bookable on the test clock whatever the date the suite runs on.
  const { app, admin, db } = await build(t, { clock: testClock(MONDAY_9AM) });
  const garage = await seedGarage(admin);
  const booking = await createBookingGarage(admin);
  const quote = await admin.createQuote({ garageSlug: garage.slug, customerName: 'Jeanne', lines: [{ label: 'Pads', quantity: 1, unitPriceCents: 5000, vatRate: 20 }] });
  const booked = await app.inject({
    method: 'POST',
    url: '/api/public/appointments',
    headers: { 'x-api-key': booking.shop.key },
    payload: bookingBody(at(TUESDAY, '09:00')),
  });
  const appointmentId = booked.json<{ appointmentId: string }>().appointmentId;

  const document = (await app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json<{
    paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: unknown }>>;
  }>();
  const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase() as Method, path, parameters: op.parameters ?? [], hasBody: op.requestBody !== undefined })),
  );
  t.ok(operations.length >= 14, `${operations.length} operations from the document`);

  /** A value of each path parameter that names something real, so that mutations reach the handlers. */
  const pathValues: Record<string, string> = {
    vehicleId: garage.vehicleIds['V-1'] as string,
    token: quote.token,
    appointmentId,
  };
  /** A valid body per operation that takes one. */
  const bodies: Record<string, unknown> = {
    'POST /api/public/appointments': bookingBody(at(TUESDAY, '11:00')),
    'POST /api/public/appointments/{appointmentId}/reschedule': { startsAt: at(TUESDAY, '14:00') },
    'POST /api/public/appointments/{appointmentId}/cancel': { reason: 'fuzz' },
    'POST /api/public/fleet/lead': { vehicleId: garage.vehicleIds['V-1'], name: 'Visitor', email: 'v@example.com', consent: true },
    'POST /api/public/quotes/{token}/accept': { signerName: 'Jeanne' },
    'POST /api/public/quotes/{token}/refuse': { reason: 'Too dear' },
  };
  const queryValue = (p: Parameter): string => {
    const s = p.schema ?? {};
    if (s.enum?.length) return String(s.enum[0]);
    if (s.format === 'date') return TUESDAY;
    if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
    if (s.type === 'integer' || s.type === 'number') return String(s.default ?? 10);
    if (p.name === 'garageSlug') return garage.slug;
    return 'A-1';
  };
  const keyFor = (path: string) => (path.startsWith('/api/public/appointments') ? booking.shop.key : garage.keys.all);

  const written = async () => {
    const { rows } = await db.handle.pool!.query<{ n: string }>(
      `select (select count(*) from appointments) + (select count(*) from leads) + (select count(*) from webhook_events)
        + (select count(*) from quotes where status <> 'pending') + (select count(*) from appointments where status <> 'booked') as n`,
    );
    return Number(rows[0]?.n);
  };

  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('query' as const), index: fc.nat(), value: nasty }),
    fc.record({ kind: fc.constant('path' as const), index: fc.nat(), value: nasty }),
    fc.record({ kind: fc.constant('body-field' as const), index: fc.nat(), value: nasty }),
    fc.record({ kind: fc.constant('body' as const), value: fc.constantFrom('{', '{"a":', 'null', '[]', '"x"', '1', '{"__proto__":{"x":1}}', '\u0000', DEEP_ARRAY, DEEP_OBJECT) }),
    fc.record({ kind: fc.constant('content-type' as const), value: fc.constantFrom('text/plain', 'application/xml', 'application/json; charset=latin1', 'multipart/form-data') }),
    fc.record({ kind: fc.constant('unknown-query' as const), value: nasty }),
    fc.record({ kind: fc.constant('repeated-query' as const), index: fc.nat() }),
    fc.record({ kind: fc.constant('method' as const), value: fc.constantFrom<Method>('GET', 'POST', 'PUT', 'PATCH', 'DELETE') }),
    fc.record({ kind: fc.constant('idempotency-key' as const), value: nasty }),
  );

  let requests = 0;
  await fc.assert(
    fc.asyncProperty(fc.nat({ max: operations.length - 1 }), mutation, fc.ipV4(), async (which, m, ip) => {
      const op = operations[which] as Operation;
      let method: Method = op.method;
      let path = op.path.replace(/\{(\w+)\}/g, (_x, name: string) => encodeSegment(pathValues[name] ?? 'x'));
      const query = new URLSearchParams();
      for (const p of op.parameters.filter((p) => p.in === 'query' && p.name !== 'apiKey' && p.name !== 'cursor')) query.set(p.name, queryValue(p));
      const headers: Record<string, string> = { 'x-api-key': keyFor(op.path) };
      let body: unknown = bodies[`${op.method} ${op.path}`];
      let payload: string | undefined = body === undefined ? undefined : JSON.stringify(body);

      const names = [...query.keys()];
      if (m.kind === 'query' && names.length > 0) query.set(names[m.index % names.length] as string, asText(m.value));
      if (m.kind === 'path') {
        const segments = path.split('/');
        segments[3 + (m.index % Math.max(1, segments.length - 3))] = encodeSegment(asText(m.value));
        path = segments.join('/');
      }
      if (m.kind === 'body-field' && body && typeof body === 'object') {
        const keys = Object.keys(body);
        body = { ...body, [keys[m.index % keys.length] as string]: m.value };
        payload = JSON.stringify(body);
      }
      if (m.kind === 'body') payload = m.value;
      if (m.kind === 'unknown-query') query.set('unexpected', asText(m.value));
      if (m.kind === 'repeated-query' && names.length > 0) query.append(names[m.index % names.length] as string, 'again');
      if (m.kind === 'method') method = m.value;
      if (m.kind === 'idempotency-key') headers['idempotency-key'] = asText(m.value).replace(/[\r\n]/g, '');
      if (payload !== undefined) headers['content-type'] = m.kind === 'content-type' ? m.value : 'application/json';

      const before = await written();
      const url = `${path}${query.size > 0 ? `?${query}` : ''}`;
      let res;
      try {
        res = await app.inject({ method, url, headers, remoteAddress: ip, ...(payload === undefined ? {} : { payload }) });
      } catch (err) {
        // A header value the HTTP layer itself refuses (inject validates like Node does) never reaches the server.
        if (err instanceof TypeError && /header/i.test(err.message)) return;
        throw err;
      }
      requests += 1;
      const where = `${method} ${url.slice(0, 200)} (${m.kind})`;
      if (res.statusCode >= 500) throw new Error(`${where}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      if (res.statusCode >= 400) {
        const error = res.json<{ error?: unknown; code?: unknown; details?: unknown }>();
        const extra = Object.keys(error).filter((k) => !['error', 'code', 'details'].includes(k));
        if (typeof error.error !== 'string' || !ERROR_CODES.includes(error.code as string) || extra.length > 0) {
          throw new Error(`${where}: an error body off the contract: ${res.body.slice(0, 300)}`);
        }
        if (error.details !== undefined && !Array.isArray(error.details)) throw new Error(`${where}: details is not an array`);
        if ((await written()) !== before) throw new Error(`${where}: ${res.statusCode} but something was written`);
      }
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  t.ok(requests > RUNS / 2, `${requests} requests sent`);
});
