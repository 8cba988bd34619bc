import { DomainError, type ErrorCode } from '@garage/domain';
import type { ApiErrorCode } from '../src/http/error-codes.js';
import t from 'tap';
import { Type } from 'typebox';
import { build, UUID, UUID_V7 } from './helper.js';

/** docs/reference/contract.md §2, written out again here so that a change to the mapping in the app fails this test. */
const CONTRACT_STATUS: Record<ApiErrorCode, number> = {
  VALIDATION_FAILED: 400,
  INVALID_REFERENCE: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  DUPLICATE: 409,
  SLOT_FULL: 409,
  DATES_UNAVAILABLE: 409,
  QUOTE_ALREADY_PROCESSED: 409,
  QUOTE_EXPIRED: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  APPOINTMENT_NOT_CHANGEABLE: 409,
  WEBHOOK_NOT_CONFIGURED: 409,
  SANDBOX_LIMIT: 409,
  VERSION_UNSUPPORTED: 400,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

const Body = Type.Object(
  {
    customer: Type.Object(
      { name: Type.String({ minLength: 1, maxLength: 120 }), email: Type.Optional(Type.String({ format: 'email' })) },
      { additionalProperties: false },
    ),
    quantity: Type.Optional(Type.Integer({ minimum: 1 })),
    consent: Type.Optional(Type.Literal(true)),
  },
  { additionalProperties: false },
);

t.test('the one error handler', async (t) => {
  const { app } = await build(t);
  // Test-only routes, to reach the error handler through every path a later feature will use.
  app.post('/test/echo', { schema: { body: Body } }, async (request) => ({ received: request.body }));
  app.get('/test/domain/:code', async (request) => {
    const { code } = request.params as { code: ErrorCode };
    throw new DomainError(code, `domain says ${code}`);
  });
  app.get('/test/crash', async () => {
    throw new Error('db password is hunter2 at /srv/app/secret.ts:42');
  });
  app.get('/test/crash-sync', () => {
    JSON.parse('{oops');
  });

  const post = (payload: string | object, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    app.inject({ method: 'POST', url: '/test/echo', headers, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

  t.test('a valid body passes untouched', async (t) => {
    const res = await post({ customer: { name: 'Jeanne', email: 'jeanne@example.com' }, quantity: 2 });
    t.equal(res.statusCode, 200);
    t.same(res.json(), { received: { customer: { name: 'Jeanne', email: 'jeanne@example.com' }, quantity: 2 } });
  });

  t.test('validation errors: 400 VALIDATION_FAILED with JSON-pointer details', async (t) => {
    const res = await post({ customer: { name: 'Jeanne', email: 'not-an-email' } });
    t.equal(res.statusCode, 400);
    const body = res.json();
    t.equal(body.code, 'VALIDATION_FAILED');
    t.type(body.error, 'string');
    t.same(body.details, [{ path: '/customer/email', message: body.details[0].message }]);
    t.match(body.details[0].message, /email/);
  });

  t.test('missing required field points at it', async (t) => {
    const res = await post({ customer: {} });
    t.equal(res.statusCode, 400);
    t.same(res.json().details.map((d: { path: string }) => d.path), ['/customer/name']);
  });

  t.test('unknown properties are rejected, not dropped', async (t) => {
    const top = await post({ customer: { name: 'J' }, extra: 1 });
    t.equal(top.statusCode, 400);
    t.same(top.json().details, [{ path: '/extra', message: 'is not an allowed property' }]);
    const nested = await post({ customer: { name: 'J', emial: 'typo@example.com' } });
    t.equal(nested.statusCode, 400);
    t.same(nested.json().details, [{ path: '/customer/emial', message: 'is not an allowed property' }]);
  });

  t.test('bodies are not coerced: a string is not an integer, "true" is not true', async (t) => {
    const qty = await post({ customer: { name: 'J' }, quantity: '2' });
    t.equal(qty.statusCode, 400);
    t.equal(qty.json().details[0].path, '/quantity');
    const consent = await post({ customer: { name: 'J' }, consent: 'true' });
    t.equal(consent.statusCode, 400);
    t.equal(consent.json().details[0].path, '/consent');
  });

  t.test('a body that is not an object', async (t) => {
    const res = await post([1, 2]);
    t.equal(res.statusCode, 400);
    t.equal(res.json().code, 'VALIDATION_FAILED');
  });

  t.test('malformed JSON: 400 VALIDATION_FAILED', async (t) => {
    const res = await post('{"customer": {"name": "J"');
    t.equal(res.statusCode, 400);
    t.same(Object.keys(res.json()).sort(), ['code', 'error']);
    t.equal(res.json().code, 'VALIDATION_FAILED');
  });

  t.test('empty JSON body: 400 VALIDATION_FAILED', async (t) => {
    const res = await post('');
    t.equal(res.statusCode, 400);
    t.equal(res.json().code, 'VALIDATION_FAILED');
  });

  t.test('prototype poisoning: 400, not 500', async (t) => {
    const res = await post('{"customer": {"name": "J"}, "__proto__": {"admin": true}}');
    t.equal(res.statusCode, 400);
    t.equal(res.json().code, 'VALIDATION_FAILED');
  });

  t.test('body over 64 KiB: 413 PAYLOAD_TOO_LARGE', async (t) => {
    const res = await post({ customer: { name: 'x'.repeat(70 * 1024) } });
    t.equal(res.statusCode, 413);
    t.equal(res.json().code, 'PAYLOAD_TOO_LARGE');
    t.type(res.json().error, 'string');
  });

  t.test('a body of exactly 64 KiB is read (and then validated)', async (t) => {
    const filler = 'x'.repeat(64 * 1024 - JSON.stringify({ customer: { name: '' } }).length);
    const payload = JSON.stringify({ customer: { name: filler } });
    t.equal(Buffer.byteLength(payload), 64 * 1024);
    const res = await post(payload);
    t.equal(res.statusCode, 400, 'name is too long, but the body was accepted for parsing');
    t.equal(res.json().details[0].path, '/customer/name');
  });

  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
    t.test(`POST with ${contentType}: 415 UNSUPPORTED_MEDIA_TYPE`, async (t) => {
      const res = await post('customer=J', { 'content-type': contentType });
      t.equal(res.statusCode, 415);
      t.equal(res.json().code, 'UNSUPPORTED_MEDIA_TYPE');
    });
  }

  t.test('POST with a body and no content type: 415', async (t) => {
    const res = await app.inject({ method: 'POST', url: '/test/echo', payload: Buffer.from('{"customer":{"name":"J"}}') });
    t.equal(res.statusCode, 415);
    t.equal(res.json().code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  t.test('application/json with a charset is JSON', async (t) => {
    const res = await post({ customer: { name: 'J' } }, { 'content-type': 'application/json; charset=utf-8' });
    t.equal(res.statusCode, 200);
  });

  t.test('unknown route: 404 NOT_FOUND', async (t) => {
    for (const [method, url] of [['GET', '/nope'], ['GET', '/api/public/nope'], ['POST', '/api/public/products/x/y']] as const) {
      const res = await app.inject({ method, url });
      t.equal(res.statusCode, 404, `${method} ${url}`);
      t.equal(res.json().code, 'NOT_FOUND');
      t.type(res.json().error, 'string');
      t.ok(res.headers['x-request-id']);
    }
  });

  t.test('known path, wrong method: 405 METHOD_NOT_ALLOWED (docs/reference/contract.md §1)', async (t) => {
    for (const [method, url] of [['POST', '/api/public/products'], ['DELETE', '/api/public/fleet']] as const) {
      const res = await app.inject({ method, url });
      t.equal(res.statusCode, 405, `${method} ${url}`);
      t.equal(res.json().code, 'METHOD_NOT_ALLOWED');
      t.match(res.headers.allow, /GET/);
      t.ok(res.headers['x-request-id']);
    }
  });

  t.test('a malformed URL: 400, not a framework body', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/api/public/fleet/%E0%A4%A' });
    t.equal(res.statusCode, 400);
    t.same(Object.keys(res.json()).sort(), ['code', 'error']);
    t.equal(res.json().code, 'VALIDATION_FAILED');
    t.ok(res.headers['x-request-id']);
  });

  t.test('every domain code maps to the status of the contract', async (t) => {
    for (const [code, status] of Object.entries(CONTRACT_STATUS)) {
      const res = await app.inject({ method: 'GET', url: `/test/domain/${code}` });
      t.equal(res.statusCode, status, code);
      t.equal(res.json().code, code, code);
      if (status === 500) t.equal(res.json().error, 'Internal server error', 'a 500 never says more');
      else t.equal(res.json().error, `domain says ${code}`);
    }
  });

  t.test('anything unexpected: 500 INTERNAL, generic message, no stack', async (t) => {
    for (const url of ['/test/crash', '/test/crash-sync']) {
      const res = await app.inject({ method: 'GET', url });
      t.equal(res.statusCode, 500);
      t.same(res.json(), { error: 'Internal server error', code: 'INTERNAL' });
      t.notMatch(res.body, /hunter2|secret\.ts|at |stack/);
    }
  });

  t.test('x-request-id: a valid one is echoed, anything else replaced by a UUID', async (t) => {
    const echoed = await app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'abc.DEF_123-x' } });
    t.equal(echoed.headers['x-request-id'], 'abc.DEF_123-x');
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', '']) {
      const res = await app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': bad } });
      t.match(res.headers['x-request-id'], UUID, JSON.stringify(bad));
    }
    const generated = await app.inject({ method: 'GET', url: '/health/live' });
    t.match(generated.headers['x-request-id'], UUID);
    t.match(generated.headers['x-request-id'], UUID_V7, 'a made id is a UUIDv7 (docs/reference/contract.md §1)');
    const limit = await post({ customer: { name: 'x'.repeat(70 * 1024) } });
    t.match(limit.headers['x-request-id'], UUID, 'set on errors raised before the handler too');
  });
});
