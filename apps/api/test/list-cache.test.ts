import { testClock } from '@garage/domain/testing';
import t from 'tap';
import { KEY_CACHE_TTL_MS } from '../src/composition/use-cases.js';
import { LIST_VERSION_SHARE_MS, PAGE_CACHE_MAX_AGE_MS } from '../src/plugins/list-cache.js';
import { build, product, seedGarage, vehicle } from './helper.js';

/** A change must reach every reader within 5 s. */
const CHANGE_WINDOW_MS = 5000;

t.test('list page cache', async (t) => {
  t.ok(PAGE_CACHE_MAX_AGE_MS + 500 <= CHANGE_WINDOW_MS, `a page is kept ${PAGE_CACHE_MAX_AGE_MS} ms at most`);

  // Time the test moves: the cache's bounds are checked without waiting them out.
  const clock = testClock(Date.now());
  const { app, admin, db } = await build(t, { clock });
  const north = await seedGarage(admin, 'north');
  const south = await seedGarage(admin, 'south');
  // The same skus in both garages, with names of their own: only the garage tells the pages apart.
  await admin.importProducts('south', ['A-1', 'B-2', 'C-3'].map((sku) => product(sku, { name: `South ${sku}` })));

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  const names = (body: string) => (JSON.parse(body) as { data: { name: string }[] }).data.map((p) => p.name).sort();
  const ids = (body: string, field: 'id' | 'productId') =>
    (JSON.parse(body) as { data: Record<string, string>[] }).data.map((item) => item[field]).sort();

  const sqlOn = async (text: string, values: unknown[] = []) => {
    const pool = db.handle.pool;
    if (!pool) throw new Error('the API tests run on Postgres');
    await pool.query(text, values);
  };

  t.test('a page is never served to another garage', async (t) => {
    // Both garages' lists at one and the same version: only the garage can keep their pages apart.
    for (const table of ['products', 'stock', 'vehicles']) {
      await sqlOn(
        `update ${table} set updated_at = '2026-01-01T00:00:00Z' where garage_id in (select id from garages where slug in ('north', 'south'))`,
      );
    }
    const lists = [
      { url: '/api/public/products', field: 'id', of: (g: typeof north) => Object.values(g.productIds) },
      { url: '/api/public/stock', field: 'productId', of: (g: typeof north) => Object.values(g.productIds) },
      { url: '/api/public/fleet', field: 'id', of: (g: typeof north) => [g.vehicleIds['V-1'], g.vehicleIds['V-2'], g.vehicleIds['V-3']] },
    ] as const;
    for (const { url, field, of } of lists) {
      const first = await get(url, { 'x-api-key': north.keys.all });
      const again = await get(url, { 'x-api-key': north.keys.all });
      t.equal(again.body, first.body, `${url}: the same page for the same garage`);
      t.same(ids(first.body, field), of(north).sort(), `${url}: north's items`);
      const other = await get(url, { 'x-api-key': south.keys.all, 'if-none-match': first.headers.etag as string });
      t.equal(other.statusCode, 200, `${url}: north's ETag is no match for south`);
      t.same(ids(other.body, field), of(south).sort(), `${url}: south's items`);
    }
    const bySlug = async (slug: string) => ids((await get(`/api/public/fleet?garageSlug=${slug}`)).body, 'id');
    t.same(await bySlug('north'), await bySlug('north'));
    t.same(await bySlug('south'), [south.vehicleIds['V-1'], south.vehicleIds['V-2'], south.vehicleIds['V-3']].sort(), 'by slug');
    t.same(names((await get('/api/public/products', { 'x-api-key': south.keys.catalog })).body), ['South A-1', 'South B-2', 'South C-3']);
  });

  t.test('a cached page still needs a valid key with the toggle', async (t) => {
    t.equal((await get('/api/public/products', { 'x-api-key': north.keys.catalog })).statusCode, 200);
    t.equal((await get('/api/public/products', { 'x-api-key': north.keys.stock })).statusCode, 401, 'syncCatalog off');
    t.equal((await get('/api/public/products')).statusCode, 401, 'no key');
  });

  t.test('a 304 from the cache is the 304 of a fresh read', async (t) => {
    const fresh = await get('/api/public/stock?limit=2', { 'x-api-key': north.keys.stock });
    const etag = fresh.headers.etag as string;
    const notModified = await get('/api/public/stock?limit=2', { 'x-api-key': north.keys.stock, 'if-none-match': etag });
    t.equal(notModified.statusCode, 304);
    t.equal(notModified.body, '');
    t.equal(notModified.headers.etag, etag);
    t.equal(notModified.headers['cache-control'], 'private, no-cache');
    t.equal(notModified.headers.vary, 'x-api-key');
    t.notOk(notModified.headers['content-type'], 'a 304 has no body, and no content type');
    const full = await get('/api/public/stock?limit=2', { 'x-api-key': north.keys.stock });
    t.equal(full.body, fresh.body, 'the page after a 304 is the same');
    t.equal(full.headers.etag, etag);
    t.match(full.headers['content-type'], /^application\/json; charset=utf-8$/);
  });

  t.test('a cached page answers only the parameters it was read for: a request that fails validation still gets 400', async (t) => {
    const key = { 'x-api-key': north.keys.stock };
    for (let i = 0; i < 3; i++) t.equal((await get('/api/public/stock?limit=3', key)).statusCode, 200);
    for (const url of ['/api/public/stock?limit=3&unknown=1', '/api/public/stock?limit=3&limit=3', '/api/public/stock?limit=3x', '/api/public/stock?limit=0']) {
      const res = await get(url, key);
      t.equal(res.statusCode, 400, url);
      t.equal(res.json().code, 'VALIDATION_FAILED', url);
    }
    t.equal((await get('/api/public/stock?limit=3', key)).statusCode, 200, 'the page is still served');
  });

  t.test('one page however its query is written; another query, another page', async (t) => {
    const key = { 'x-api-key': north.keys.all };
    const page = async (url: string, headers: Record<string, string> = key) => {
      // Twice: the second answer comes from the cache.
      await get(url, headers);
      const res = await get(url, headers);
      t.equal(res.statusCode, 200, url);
      return res.body;
    };
    const two = await page('/api/public/products?limit=2&updatedSince=2000-01-01T00:00:00Z');
    t.equal(JSON.parse(two).data.length, 2);
    t.equal(await page('/api/public/products?updatedSince=2000-01-01T00:00:00Z&limit=2'), two, 'parameters in another order');
    t.equal(await page('/api/public/products?%6Cimit=2&updatedSince=2000-01-01T00:00:00Z'), two, 'a name percent-encoded');
    t.equal(await page(`/api/public/products?limit=2&apiKey=${north.keys.all}&updatedSince=2000-01-01T00:00:00Z`, {}), two, 'the key in the query');
    t.equal(JSON.parse(await page('/api/public/products?limit=1&updatedSince=2000-01-01T00:00:00Z')).data.length, 1, 'another limit');
    t.equal(JSON.parse(await page(`/api/public/products?%6Cimit=1&apiKey=${north.keys.all}&updatedSince=2000-01-01T00:00:00Z`, {})).data.length, 1);
    const south2 = await page(`/api/public/products?limit=2&apiKey=${south.keys.all}&updatedSince=2000-01-01T00:00:00Z`, {});
    t.ok(names(south2).length === 2 && names(south2).every((name) => name.startsWith('South ')), "the same query with another garage's key: that garage's page");
  });

  t.test('every write is seen by the next request', async (t) => {
    const key = { 'x-api-key': north.keys.all };
    const before = {
      products: await get('/api/public/products', key),
      stock: await get('/api/public/stock', key),
      fleet: await get('/api/public/fleet', key),
    };
    await admin.importProducts('north', [product('A-1', { name: 'Renamed' })]);
    await admin.importStock('north', [{ sku: 'B-2', quantity: 42 }]);
    await admin.importVehicles('north', [vehicle('V-3', { make: 'Tesla', fuel: 'electric', status: 'sold' })]);

    const products = await get('/api/public/products', { ...key, 'if-none-match': before.products.headers.etag as string });
    t.equal(products.statusCode, 200, 'products: the old ETag no longer matches');
    t.ok(names(products.body).includes('Renamed'));
    const stock = await get('/api/public/stock', { ...key, 'if-none-match': before.stock.headers.etag as string });
    t.equal(stock.statusCode, 200);
    t.ok(JSON.parse(stock.body).data.some((s: { sku: string; quantity: number }) => s.sku === 'B-2' && s.quantity === 42));
    const fleet = await get('/api/public/fleet', { ...key, 'if-none-match': before.fleet.headers.etag as string });
    t.equal(fleet.statusCode, 200);
    t.notOk(ids(fleet.body, 'id').includes(north.vehicleIds['V-3'] as string), 'the sold vehicle left the list');
  });

  t.test('requests that arrive together while a page is read all get that page', async (t) => {
    const key = { 'x-api-key': north.keys.all };
    await admin.importProducts('north', [product('B-2', { name: 'Together' })]);
    const responses = await Promise.all(Array.from({ length: 20 }, () => get('/api/public/products?limit=3', key)));
    t.same([...new Set(responses.map((r) => r.statusCode))], [200]);
    t.equal(new Set(responses.map((r) => r.body)).size, 1, 'one and the same page');
    t.ok(names(responses[0]?.body ?? '{"data":[]}').includes('Together'), 'the page after the write');
    const etag = responses[0]?.headers.etag as string;
    const conditional = await Promise.all(Array.from({ length: 10 }, () => get('/api/public/products?limit=3', { ...key, 'if-none-match': etag })));
    t.same([...new Set(conditional.map((r) => r.statusCode))], [304]);
  });

  t.test('a change the version cannot see is served within the page maximum age', async (t) => {
    const key = { 'x-api-key': north.keys.catalog };
    const url = '/api/public/products?limit=50';
    // Read twice: a page's bytes are kept from its second read on.
    await get(url, key);
    await get(url, key);
    // A write whose timestamp is not the newest (as a slow transaction that started earlier could commit): the
    // garage's products version does not move.
    await sqlOn(`update products set name = 'Unseen change' where id = $1`, [north.productIds['C-3']]);
    t.notOk(names((await get(url, key)).body).includes('Unseen change'), 'the page is served from the cache…');
    clock.advance(PAGE_CACHE_MAX_AGE_MS + 1);
    t.ok(names((await get(url, key)).body).includes('Unseen change'), '…until its maximum age, never longer');
  });

  t.test('a page read once is not kept, only its ETag; a page read again is', async (t) => {
    const key = { 'x-api-key': north.keys.catalog };
    const url = '/api/public/products?limit=40';
    // A write the version cannot see tells whether a page came from the cache or from the database.
    const hiddenRename = (name: string) => sqlOn(`update products set name = $2 where id = $1`, [north.productIds['A-1'], name]);
    clock.advance(PAGE_CACHE_MAX_AGE_MS + 1);
    const once = await get(url, key);
    await hiddenRename('Read from the database');
    const twice = await get(url, key);
    t.ok(names(twice.body).includes('Read from the database'), 'after one read, the next one reads the database');
    t.equal((await get(url, { ...key, 'if-none-match': twice.headers.etag as string })).statusCode, 304, 'its ETag answers a conditional request');
    t.not(twice.headers.etag, once.headers.etag);
    await hiddenRename('Not seen while the page is kept');
    t.equal((await get(url, key)).body, twice.body, 'after the second read, the page is served from the cache');
    await hiddenRename('Renamed');

    // A conditional request after a single read: its ETag is known, so the answer is a 304 without a read.
    const other = '/api/public/products?limit=41';
    clock.advance(PAGE_CACHE_MAX_AGE_MS + 1);
    const first = await get(other, key);
    await hiddenRename('Changed after the first read');
    const conditional = await get(other, { ...key, 'if-none-match': first.headers.etag as string });
    t.equal(conditional.statusCode, 304);
  });

  t.test('requests that arrive together after a single read still share one read', async (t) => {
    const key = { 'x-api-key': north.keys.catalog };
    const url = '/api/public/products?limit=42';
    clock.advance(PAGE_CACHE_MAX_AGE_MS + 1);
    await get(url, key);
    const listProducts = app.useCases.listProducts;
    let reads = 0;
    app.useCases.listProducts = (query) => ((reads += 1), listProducts(query));
    t.teardown(() => {
      app.useCases.listProducts = listProducts;
    });
    const responses = await Promise.all(Array.from({ length: 10 }, () => get(url, key)));
    t.same([...new Set(responses.map((r) => r.statusCode))], [200]);
    t.equal(new Set(responses.map((r) => r.body)).size, 1);
    t.equal(reads, 1, 'one read for the ten requests');
  });

  t.test('the key cache and the page cache do not outlive a revocation together', async (t) => {
    const key = { 'x-api-key': north.keys.catalog };
    t.equal((await get('/api/public/products', key)).statusCode, 200);
    await admin.revokeIntegration(north.integrationIds.catalog);
    clock.advance(KEY_CACHE_TTL_MS + 1);
    t.equal((await get('/api/public/products', key)).statusCode, 401);
  });

  t.test('a garage created after its slug gave 404 is listed within the same window as a key', async (t) => {
    t.equal((await get('/api/public/fleet?garageSlug=latecomer')).statusCode, 404);
    await seedGarage(admin, 'latecomer');
    clock.advance(KEY_CACHE_TTL_MS + 1);
    const fleet = await get('/api/public/fleet?garageSlug=latecomer');
    t.equal(fleet.statusCode, 200);
    t.equal(JSON.parse(fleet.body).data.length, 3);
  });
});

t.test('a probed version is shared for a second: no database round trip per request, a write seen within it', async (t) => {
  const clock = testClock(Date.now());
  const { app, admin } = await build(t, { clock, listVersionShareMs: LIST_VERSION_SHARE_MS });
  const garage = await seedGarage(admin, 'shared');
  await app.ready();
  let probes = 0;
  const probe = app.listVersionProbe;
  const versions = probe.versions.bind(probe);
  probe.versions = (list, garageIds) => ((probes += 1), versions(list, garageIds));
  const get = () => app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-api-key': garage.keys.all } });

  const first = await get();
  t.equal(probes, 1);
  for (let i = 0; i < 5; i++) t.equal((await get()).headers.etag, first.headers.etag);
  t.equal(probes, 1, 'five more requests within the second: no probe');
  await admin.importProducts('shared', [product('NEW-1')]);
  t.equal((await get()).headers.etag, first.headers.etag, 'within the second, the page probed before the write');
  clock.advance(LIST_VERSION_SHARE_MS + 1);
  const after = await get();
  t.not(after.headers.etag, first.headers.etag, 'after it, the write');
  t.ok(after.json().data.some((p: { sku: string }) => p.sku === 'NEW-1'));
  t.equal(probes, 2);
  t.ok(LIST_VERSION_SHARE_MS + PAGE_CACHE_MAX_AGE_MS <= CHANGE_WINDOW_MS, 'shared version and page age stay inside the 5 s');
});
