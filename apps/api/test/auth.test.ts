import { testClock } from '@garage/domain/testing';
import t, { type Test as Tap } from 'tap';
import { build, seedGarage } from './helper.js';

const TTL_MS = 300;

t.test('API keys (docs/reference/contract.md §3)', async (t) => {
  // The key cache's time: the tests move it past the TTL instead of waiting.
  const clock = testClock('2026-11-30T08:00:00Z');
  const { app, admin } = await build(t, { keyCacheTtlMs: TTL_MS, clock });
  const garage = await seedGarage(admin);
  const get = (url: string, key?: string) =>
    app.inject({ method: 'GET', url, headers: key === undefined ? {} : { 'x-api-key': key } });

  const expect401 = async (t: Tap, url: string, key: string | undefined, why: string) => {
    const res = await get(url, key);
    t.equal(res.statusCode, 401, why);
    t.equal(res.json().code, 'UNAUTHORIZED', why);
    t.type(res.json().error, 'string');
  };

  t.test('a key with the toggle opens the endpoint', async (t) => {
    t.equal((await get('/api/public/products', garage.keys.catalog)).statusCode, 200);
    t.equal((await get('/api/public/stock', garage.keys.stock)).statusCode, 200);
    t.equal((await get('/api/public/products', garage.keys.all)).statusCode, 200);
  });

  t.test('missing, unknown, malformed keys: 401', async (t) => {
    for (const url of ['/api/public/products', '/api/public/stock']) {
      await expect401(t, url, undefined, `${url} without key`);
      await expect401(t, url, '0123456789abcdef0123456789abcdef', `${url} unknown key`);
      await expect401(t, url, garage.keys.all.toUpperCase(), `${url} uppercase (malformed) key`);
      await expect401(t, url, `${garage.keys.all}0`, `${url} key too long`);
      await expect401(t, url, '', `${url} empty key`);
    }
  });

  t.test('each toggle off: 401', async (t) => {
    await expect401(t, '/api/public/products', garage.keys.stock, 'syncCatalog off');
    await expect401(t, '/api/public/products', garage.keys.none, 'syncCatalog off (no toggle)');
    await expect401(t, '/api/public/stock', garage.keys.catalog, 'syncStock off');
    await expect401(t, '/api/public/stock', garage.keys.none, 'syncStock off (no toggle)');
  });

  t.test('401 comes before validation of the query', async (t) => {
    await expect401(t, '/api/public/products?limit=0', undefined, 'bad query, no key');
  });

  t.test('the apiKey query parameter works but is marked deprecated', async (t) => {
    const res = await app.inject({ method: 'GET', url: `/api/public/products?apiKey=${garage.keys.catalog}` });
    t.equal(res.statusCode, 200);
    t.equal(res.headers.deprecation, 'true');
    t.match(res.headers.link, /rel="deprecation"/);
    const bad = await app.inject({ method: 'GET', url: '/api/public/stock?apiKey=nope' });
    t.equal(bad.statusCode, 401);
    t.equal(bad.headers.deprecation, 'true');
    const header = await get('/api/public/products', garage.keys.catalog);
    t.equal(header.headers.deprecation, undefined, 'no Deprecation with the header');
  });

  t.test('a fleet key in the query of a web page (an Origin) is refused: pages use garageSlug', async (t) => {
    const fleet = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: `/api/public/fleet${url}`, headers });
    const origin = { origin: 'https://garage.example' };
    for (const url of [`?apiKey=${garage.keys.none}`, `?apiKey=${'f'.repeat(32)}`, `/00000000-0000-4000-8000-000000000000?apiKey=${garage.keys.none}`]) {
      const res = await fleet(url, origin);
      t.equal(res.statusCode, 400, url);
      t.match(res.json(), { code: 'VALIDATION_FAILED', details: [{ path: '/apiKey' }] });
    }
    t.equal((await fleet(`?apiKey=${garage.keys.none}`)).statusCode, 200, 'a server (no Origin) may still use the query');
    t.equal((await fleet('', { ...origin, 'x-api-key': garage.keys.none })).statusCode, 200, 'the header is not a page');
    t.equal((await fleet(`?garageSlug=${garage.slug}`, origin)).statusCode, 200, 'a page uses garageSlug');
  });

  t.test('key-authenticated responses vary on x-api-key', async (t) => {
    const ok = await get('/api/public/products', garage.keys.catalog);
    t.match(ok.headers.vary, /x-api-key/i);
    const denied = await get('/api/public/products');
    t.match(denied.headers.vary, /x-api-key/i);
  });

  t.test('revocation takes effect within the key cache TTL', async (t) => {
    const created = await admin.createIntegration({ garageSlug: garage.slug, name: 'to revoke', sync: ['catalog'], webhookUrl: null });
    t.equal((await get('/api/public/products', created.apiKey)).statusCode, 200);
    await admin.revokeIntegration(created.integration.id);
    clock.advance(TTL_MS + 1);
    await expect401(t, '/api/public/products', created.apiKey, 'revoked');
  });

  t.test('rotation: the old key stops, the new one works', async (t) => {
    const created = await admin.createIntegration({ garageSlug: garage.slug, name: 'to rotate', sync: ['stock'], webhookUrl: null });
    t.equal((await get('/api/public/stock', created.apiKey)).statusCode, 200);
    const rotated = await admin.rotateKey(created.integration.id);
    t.equal((await get('/api/public/stock', rotated.apiKey)).statusCode, 200, 'new key works at once');
    clock.advance(TTL_MS + 1);
    await expect401(t, '/api/public/stock', created.apiKey, 'old key after rotation');
  });

  t.test('a key of one garage never reads another garage', async (t) => {
    const other = await seedGarage(admin, 'other');
    const mine = await get('/api/public/products', garage.keys.catalog);
    const theirs = await get('/api/public/products', other.keys.catalog);
    const ids = (res: typeof mine) => res.json().data.map((p: { id: string }) => p.id);
    t.same(ids(mine).sort(), Object.values(garage.productIds).sort());
    t.same(ids(theirs).sort(), Object.values(other.productIds).sort());
  });
});

t.test('the default key cache keeps revocation within the 5 s of the contract', async (t) => {
  const clock = testClock('2026-11-30T08:00:00Z');
  const { app, admin } = await build(t, { clock });
  const garage = await seedGarage(admin);
  const get = (key: string) => app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-api-key': key } });
  t.equal((await get(garage.keys.catalog)).statusCode, 200, 'cached now');
  await admin.revokeIntegration(garage.integrationIds.catalog);
  clock.advance(5_000);
  t.equal((await get(garage.keys.catalog)).statusCode, 401, 'refused 5 s after the revocation');
});
