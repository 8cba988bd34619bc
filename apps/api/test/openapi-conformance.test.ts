import t from 'tap';
import { build } from './helper.js';
import { makeConformanceCheck, type ReceivedResponse } from './openapi-conformance.js';

/** The shared hook of helper.ts rejects every kind of response the document does not describe. */
t.test('the conformance check catches an undeclared status, an undeclared header and an invalid body', async (t) => {
  const check = makeConformanceCheck();
  const product = {
    id: '00000000-0000-4000-8000-000000000001', sku: 'A-1', name: 'Oil', description: null, category: null, brand: null,
    priceCents: 1000, currency: 'EUR', vatRate: 20, unit: 'piece', active: true, updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const ok: ReceivedResponse = {
    method: 'GET',
    url: '/api/public/products?limit=1',
    statusCode: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r1', etag: '"x"' },
    body: JSON.stringify({ data: [product], nextCursor: null }),
  };
  t.doesNotThrow(() => check(ok), 'a described response passes');
  t.throws(() => check({ ...ok, statusCode: 418 }), /status 418 is not declared/);
  t.throws(() => check({ ...ok, headers: { ...ok.headers, 'x-surprise': '1' } }), /header x-surprise is not declared/);
  t.throws(() => check({ ...ok, body: JSON.stringify({ data: [{ ...product, priceCents: 'ten' }], nextCursor: null }) }), /body\/data\/0\/priceCents must be integer/);
  t.throws(() => check({ ...ok, body: JSON.stringify({ data: [], nextCursor: null, extra: true }) }), /must NOT have additional properties/);
  t.throws(() => check({ ...ok, statusCode: 401, body: JSON.stringify({ error: 'x', code: 'NOT_A_CODE' }) }), /code must be equal to one of the allowed values/);
  t.throws(
    () => check({ method: 'POST', url: '/api/public/fleet/lead', statusCode: 200, headers: {}, body: '' }),
    /POST \/api\/public\/fleet\/lead → 200: status 200 is not declared/,
    '/fleet/lead is matched as itself, not as /fleet/{vehicleId}',
  );
  t.doesNotThrow(() => check({ ...ok, url: '/health/live' }), 'paths outside the document are not checked');
});

t.test('build() checks every injected response: a route answering outside the document fails the call', async (t) => {
  const { app } = await build(t);
  // A route that breaks the contract on purpose, registered on a documented path with a documented method.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.headers['x-break-contract']) reply.header('x-surprise', 'yes');
    return payload;
  });
  t.equal((await app.inject({ method: 'GET', url: '/api/public/products' })).statusCode, 401, 'a documented 401 passes');
  await t.rejects(
    app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-break-contract': '1' } }),
    /header x-surprise is not declared/,
  );
});
