import t from 'tap';
import { build, seedGarage } from './helper.js';

const ORIGIN = 'https://garage-website.example';

t.test('CORS: public endpoints allow cross-origin calls, key endpoints send no CORS header', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);
  const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((h) => h.startsWith('access-control-'));

  t.test('fleet list and item', async (t) => {
    for (const url of [`/api/public/fleet?garageSlug=${garage.slug}`, `/api/public/fleet/${garage.vehicleIds['V-1']}?garageSlug=${garage.slug}`]) {
      const res = await app.inject({ method: 'GET', url, headers: { origin: ORIGIN } });
      t.equal(res.statusCode, 200);
      t.equal(res.headers['access-control-allow-origin'], '*');
      t.match(res.headers['access-control-expose-headers'], /ETag/);
      t.match(res.headers['access-control-expose-headers'], /X-Request-Id/);
      t.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
    }
  });

  t.test('fleet errors are readable cross-origin too', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/api/public/fleet?garageSlug=nope', headers: { origin: ORIGIN } });
    t.equal(res.statusCode, 404);
    t.equal(res.headers['access-control-allow-origin'], '*');
    const unauthorized = await app.inject({ method: 'GET', url: '/api/public/fleet', headers: { origin: ORIGIN } });
    t.equal(unauthorized.statusCode, 401);
    t.equal(unauthorized.headers['access-control-allow-origin'], '*');
  });

  t.test('fleet preflight', async (t) => {
    for (const url of ['/api/public/fleet', `/api/public/fleet/${garage.vehicleIds['V-1']}`]) {
      const res = await app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match, garage-version' },
      });
      t.equal(res.statusCode, 204, url);
      t.equal(res.headers['access-control-allow-origin'], '*');
      t.match(res.headers['access-control-allow-methods'], /GET/);
      t.match(res.headers['access-control-allow-headers'], /If-None-Match/i);
      t.match(res.headers['access-control-allow-headers'], /Garage-Version/i, 'a page may choose its version, as @garage/client does');
    }
    const read = await app.inject({ method: 'GET', url: `/api/public/fleet?garageSlug=${garage.slug}`, headers: { origin: ORIGIN, 'garage-version': '2026-11-26' } });
    t.equal(read.statusCode, 200);
    t.match(read.headers['access-control-expose-headers'], /Garage-Version/i, 'and read which version answered');
  });

  t.test('the OpenAPI document is readable cross-origin', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/api/public/openapi.json', headers: { origin: ORIGIN } });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['access-control-allow-origin'], '*');
  });

  t.test('key-authenticated endpoints: no CORS headers, not even on preflight', async (t) => {
    for (const url of ['/api/public/products', '/api/public/stock']) {
      const ok = await app.inject({ method: 'GET', url, headers: { origin: ORIGIN, 'x-api-key': garage.keys.all } });
      t.equal(ok.statusCode, 200, url);
      t.same(corsHeaders(ok.headers), [], `${url} 200`);
      const denied = await app.inject({ method: 'GET', url, headers: { origin: ORIGIN } });
      t.equal(denied.statusCode, 401);
      t.same(corsHeaders(denied.headers), [], `${url} 401`);
      const preflight = await app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
      });
      t.same(corsHeaders(preflight.headers), [], `${url} preflight`);
      // A known path without OPTIONS: 405 like any other method it does not have (docs/reference/contract.md §1).
      t.equal(preflight.statusCode, 405);
      t.equal(preflight.json().code, 'METHOD_NOT_ALLOWED');
      t.equal(preflight.headers.allow, 'GET, HEAD');
    }
  });

  t.test('health endpoints send no CORS headers', async (t) => {
    const res = await app.inject({ method: 'GET', url: '/health/live', headers: { origin: ORIGIN } });
    t.same(corsHeaders(res.headers), []);
  });
});
