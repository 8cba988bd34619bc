import t from 'tap';
import { build, seedGarage } from './helper.js';

t.test('garageSlug is checked (length, charset) before the garage is looked up', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);
  const vehicleId = garage.vehicleIds['V-1'];
  const bad = ['Acme', 'a%20b', 'a'.repeat(64), '%00', 'acme%00', '%C3%A9', 'acme--x', '-acme', '..%2Facme'];
  for (const url of ['/api/public/fleet', `/api/public/fleet/${vehicleId}`]) {
    for (const slug of bad) {
      const res = await app.inject({ method: 'GET', url: `${url}?garageSlug=${slug}` });
      t.equal(res.statusCode, 400, `${url} garageSlug=${slug}`);
      t.match(res.json(), { code: 'VALIDATION_FAILED', details: [{ path: '/garageSlug' }] });
    }
    t.equal((await app.inject({ method: 'GET', url: `${url}?garageSlug=${garage.slug}` })).statusCode, 200);
    t.equal((await app.inject({ method: 'GET', url: `${url}?garageSlug=${'a'.repeat(63)}` })).statusCode, 404, 'well formed, unknown');
  }
});

t.test('by default reads by garageSlug are private, no-cache like every read, and errors carry no cache header', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);
  for (const path of ['/api/public/fleet', `/api/public/fleet/${garage.vehicleIds['V-1']}`]) {
    const res = await app.inject({ method: 'GET', url: `${path}?garageSlug=${garage.slug}` });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'private, no-cache', `${path}: the contract's default`);
    t.equal(res.headers.vary, 'x-api-key', 'the same URL with a key is another answer');
  }
  const missing = await app.inject({ method: 'GET', url: '/api/public/fleet?garageSlug=no-such-garage' });
  t.equal(missing.statusCode, 404);
  t.equal(missing.headers['cache-control'], undefined);
});

t.test('where the operator allows it, reads by garageSlug are public for shared caches; reads with a key and errors are not', async (t) => {
  const { app, admin } = await build(t, { env: { PUBLIC_CACHE_MAX_AGE_SECONDS: '120' } });
  const garage = await seedGarage(admin);
  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => app.inject({ method, url, headers });
  for (const path of ['/api/public/fleet', `/api/public/fleet/${garage.vehicleIds['V-1']}`]) {
    const url = `${path}?garageSlug=${garage.slug}`;
    const res = await get(url);
    t.equal(res.headers['cache-control'], 'public, max-age=120, stale-while-revalidate=240', `${path}: the configured max-age`);
    t.equal(res.headers.vary, 'x-api-key, garage-version');
    t.notOk(res.headers['set-cookie']);
    const notModified = await get(url, { 'if-none-match': res.headers.etag as string });
    t.equal(notModified.statusCode, 304);
    t.equal(notModified.headers['cache-control'], 'public, max-age=120, stale-while-revalidate=240', 'a 304 renews a stored copy for as long');
    t.equal(notModified.headers.vary, 'x-api-key, garage-version');
    t.equal((await get(url, {}, 'HEAD')).headers['cache-control'], 'public, max-age=120, stale-while-revalidate=240', 'HEAD too');

    const keyed = await get(url, { 'x-api-key': garage.keys.none });
    t.equal(keyed.statusCode, 200);
    t.equal(keyed.headers['cache-control'], 'private, no-cache', `${path} with a key: private, as every key-authenticated read`);
    t.equal(keyed.headers.vary, 'x-api-key');
    const denied = await get(url, { 'x-api-key': 'f'.repeat(32) });
    t.equal(denied.statusCode, 401);
    t.equal(denied.headers['cache-control'], undefined, 'a refused key is no public read');
  }
  for (const url of [
    '/api/public/fleet?garageSlug=no-such-garage',
    '/api/public/fleet?garageSlug=Bad_Slug',
    '/api/public/fleet',
    `/api/public/fleet?garageSlug=${garage.slug}&limit=0`,
    `/api/public/fleet/${garage.vehicleIds['V-SOLD']}?garageSlug=${garage.slug}`,
  ]) {
    const res = await get(url);
    t.ok(res.statusCode >= 400, `${url}: ${res.statusCode}`);
    t.equal(res.headers['cache-control'], 'no-store', `${url}: no cache keeps it`);
  }
});
