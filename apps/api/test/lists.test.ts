import t from 'tap';
import { build, product, RFC3339, seedGarage, UUID, vehicle } from './helper.js';

const PRODUCT_FIELDS = ['active', 'brand', 'category', 'currency', 'description', 'id', 'name', 'priceCents', 'sku', 'unit', 'updatedAt', 'vatRate'];
const STOCK_FIELDS = ['productId', 'quantity', 'sku', 'updatedAt'];
const VEHICLE_FIELDS = [
  'color', 'currency', 'description', 'fuel', 'gearbox', 'id', 'make', 'mileageKm', 'model', 'photos', 'priceCents',
  'publishedAt', 'reference', 'status', 'updatedAt', 'version', 'year',
];

t.test('lists (docs/reference/contract.md §4.2)', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);
  const key = garage.keys.all;
  const get = (url: string, headers: Record<string, string> = { 'x-api-key': key }) => app.inject({ method: 'GET', url, headers });

  /** Walks every page; returns the items in order. */
  const walk = async (url: string, limit: number, between?: (page: number) => Promise<void>) => {
    const items: { id?: string; productId?: string; sku?: string }[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      const sep = url.includes('?') ? '&' : '?';
      const res = await get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
      const body = res.json();
      t.ok(body.data.length <= limit);
      items.push(...body.data);
      cursor = body.nextCursor;
      page += 1;
      if (between) await between(page);
    } while (cursor !== null);
    return items;
  };

  t.test('products: body shape, nothing internal, RFC 3339 times', async (t) => {
    const res = await get('/api/public/products');
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^application\/json; charset=utf-8$/);
    const body = res.json();
    t.same(Object.keys(body).sort(), ['data', 'nextCursor']);
    t.equal(body.nextCursor, null);
    t.equal(body.data.length, 3);
    for (const p of body.data) {
      t.same(Object.keys(p).sort(), PRODUCT_FIELDS);
      t.match(p.id, UUID);
      t.match(p.updatedAt, RFC3339);
      t.equal(p.active, true);
      t.equal(p.vatRate, 20);
      t.equal(p.currency, 'EUR');
    }
    t.same(body.data.map((p: { sku: string }) => p.sku).sort(), ['A-1', 'B-2', 'C-3']);
    t.equal(body.data.find((p: { sku: string }) => p.sku === 'B-2').description, 'Second');
    t.notMatch(res.body, /garage_?id|hash/i);
  });

  t.test('stock: one item per product', async (t) => {
    const res = await get('/api/public/stock');
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.equal(body.nextCursor, null);
    t.same(body.data.map((s: { sku: string; quantity: number }) => [s.sku, s.quantity]).sort(), [['A-1', 5], ['B-2', 0], ['C-3', 12]]);
    for (const s of body.data) {
      t.same(Object.keys(s).sort(), STOCK_FIELDS);
      t.equal(s.productId, garage.productIds[s.sku]);
      t.match(s.updatedAt, RFC3339);
    }
  });

  t.test('sku filter', async (t) => {
    t.same(((await get('/api/public/products?sku=B-2')).json().data as { sku: string }[]).map((p) => p.sku), ['B-2']);
    t.same(((await get('/api/public/stock?sku=C-3')).json().data as { sku: string }[]).map((p) => p.sku), ['C-3']);
    t.same((await get('/api/public/products?sku=NOPE')).json(), { data: [], nextCursor: null });
  });

  t.test('limit: 1 to 500, default 100, else 400', async (t) => {
    for (const limit of ['0', '501', '-1', '1.5', 'abc', '']) {
      const res = await get(`/api/public/products?limit=${limit}`);
      t.equal(res.statusCode, 400, `limit=${limit}`);
      t.equal(res.json().code, 'VALIDATION_FAILED');
      t.equal(res.json().details[0].path, '/limit');
    }
    t.equal((await get('/api/public/products?limit=1')).statusCode, 200);
    t.equal((await get('/api/public/products?limit=500')).statusCode, 200);
    const twice = await get('/api/public/products?limit=1&limit=2');
    t.equal(twice.statusCode, 400, 'a parameter given twice');
  });

  t.test('the default page is 100 items', async (t) => {
    await admin.createGarage({ slug: 'big', name: 'Big' });
    const created = await admin.createIntegration({ garageSlug: 'big', name: 'sync', sync: ['catalog'], webhookUrl: null });
    await admin.importProducts('big', Array.from({ length: 130 }, (_, i) => product(`BIG-${String(i).padStart(3, '0')}`)));
    const first = await get('/api/public/products', { 'x-api-key': created.apiKey });
    t.equal(first.json().data.length, 100);
    t.type(first.json().nextCursor, 'string');
    const second = await get(`/api/public/products?cursor=${encodeURIComponent(first.json().nextCursor)}`, { 'x-api-key': created.apiKey });
    t.equal(second.json().data.length, 30);
    t.equal(second.json().nextCursor, null);
  });

  t.test('unknown query parameters: 400', async (t) => {
    const res = await get('/api/public/products?limt=10');
    t.equal(res.statusCode, 400);
    t.same(res.json().details, [{ path: '/limt', message: 'is not an allowed parameter' }]);
    t.equal((await get('/api/public/products?garageSlug=acme')).statusCode, 400, 'garageSlug is for fleet only');
    t.equal((await get('/api/public/stock?make=x')).statusCode, 400);
    t.equal((await get(`/api/public/stock?apiKey=${key}`, {})).statusCode, 200, 'apiKey is allowed');
  });

  t.test('updatedSince: RFC 3339 only', async (t) => {
    for (const bad of ['yesterday', '2026-01-01', '2026-01-01T00:00:00', '2026-02-30T00:00:00Z', '1700000000']) {
      const res = await get(`/api/public/products?updatedSince=${encodeURIComponent(bad)}`);
      t.equal(res.statusCode, 400, bad);
      t.equal(res.json().details[0].path, '/updatedSince');
    }
    const ok = await get(`/api/public/products?updatedSince=${encodeURIComponent('2000-01-01T00:00:00+02:00')}`);
    t.equal(ok.statusCode, 200);
  });

  t.test('updatedSince lists inactive products too; without it they are hidden', async (t) => {
    await admin.createGarage({ slug: 'inactive', name: 'Inactive' });
    const created = await admin.createIntegration({ garageSlug: 'inactive', name: 'sync', sync: ['catalog'], webhookUrl: null });
    await admin.importProducts('inactive', [product('ON'), product('OFF', { active: false })]);
    const headers = { 'x-api-key': created.apiKey };
    const plain = await get('/api/public/products', headers);
    t.same(plain.json().data.map((p: { sku: string }) => p.sku), ['ON']);
    const since = await get(`/api/public/products?updatedSince=${encodeURIComponent('2000-01-01T00:00:00Z')}`, headers);
    const bySku = Object.fromEntries(since.json().data.map((p: { sku: string; active: boolean }) => [p.sku, p.active]));
    t.same(bySku, { ON: true, OFF: false });
    const future = await get(`/api/public/products?updatedSince=${encodeURIComponent('2999-01-01T00:00:00Z')}`, headers);
    t.same(future.json().data, [], 'updatedAt >= updatedSince');
    const exact = since.json().data[0];
    const atExact = await get(`/api/public/products?updatedSince=${encodeURIComponent(exact.updatedAt)}`, headers);
    t.ok(atExact.json().data.some((p: { id: string }) => p.id === exact.id), 'the bound is inclusive');
  });

  t.test('paging returns every item exactly once, also while items change', async (t) => {
    await admin.createGarage({ slug: 'paging', name: 'Paging' });
    const created = await admin.createIntegration({ garageSlug: 'paging', name: 'sync', sync: ['catalog', 'stock'], webhookUrl: null });
    const skus = Array.from({ length: 23 }, (_, i) => `P-${String(i).padStart(2, '0')}`);
    await admin.importProducts('paging', skus.map((sku) => product(sku)));
    await admin.importStock('paging', skus.map((sku) => ({ sku, quantity: 1 })));
    const headers = { 'x-api-key': created.apiKey };
    const walkWith = async (url: string, limit: number, between?: (page: number, seen: string[]) => Promise<void>) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const res = await get(`${url}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers);
        t.equal(res.statusCode, 200);
        seen.push(...res.json().data.map((item: { sku: string }) => item.sku));
        cursor = res.json().nextCursor;
        page += 1;
        if (between) await between(page, seen);
      } while (cursor !== null);
      return seen;
    };
    for (const limit of [1, 5, 23, 24]) {
      const products = await walkWith('/api/public/products', limit);
      t.same([...products].sort(), skus, `products, limit ${limit}`);
      const stock = await walkWith('/api/public/stock', limit);
      t.same([...stock].sort(), skus, `stock, limit ${limit}`);
    }
    // Items not read yet are updated between pages: they move behind the cursor and are still read exactly once.
    const unread = (seen: string[]) => skus.filter((sku) => !seen.includes(sku));
    const products = await walkWith('/api/public/products', 5, async (page, seen) => {
      if (page === 1) await admin.importProducts('paging', unread(seen).slice(0, 2).map((sku) => product(sku, { name: 'renamed' })));
      if (page === 2) await admin.importProducts('paging', unread(seen).slice(-1).map((sku) => product(sku, { priceCents: 1 })));
    });
    t.same([...products].sort(), skus, 'every product once while others change');
    const stock = await walkWith('/api/public/stock', 5, async (page, seen) => {
      if (page === 1) await admin.importStock('paging', unread(seen).slice(0, 3).map((sku) => ({ sku, quantity: 7 })));
    });
    t.same([...stock].sort(), skus, 'every stock item once while others change');
    // An item changed after it was read is read again (its new state), and nothing is missed.
    let changed = '';
    const again = await walkWith('/api/public/products', 5, async (page, seen) => {
      if (page === 1) {
        changed = seen[0] as string;
        await admin.importProducts('paging', [product(changed, { name: 'changed after read' })]);
      }
    });
    t.same([...new Set(again)].sort(), skus, 'nothing missed');
    t.equal(again.filter((sku) => sku === changed).length, 2, 'the changed item is read in its new state');
    t.equal(again.length, skus.length + 1, 'every other item exactly once');
  });

  t.test('cursor: opaque and tamper-proof', async (t) => {
    const first = (await get('/api/public/products?limit=1')).json();
    const cursor: string = first.nextCursor;
    t.type(cursor, 'string');
    const [payload, mac] = cursor.split('.');
    const tampered = [
      `${payload}.${mac?.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      `${Buffer.from(`${Date.now()}.${garage.productIds['A-1']}`).toString('base64url')}.${mac}`,
      'garbage',
      `${cursor}.extra`,
    ];
    for (const bad of tampered) {
      const res = await get(`/api/public/products?limit=1&cursor=${encodeURIComponent(bad)}`);
      t.equal(res.statusCode, 400, bad);
      t.equal(res.json().code, 'VALIDATION_FAILED');
    }
    const otherList = await get(`/api/public/stock?limit=1&cursor=${encodeURIComponent(cursor)}`);
    t.equal(otherList.statusCode, 400, 'a products cursor is not a stock cursor');
    const otherFilter = await get(`/api/public/products?limit=1&sku=A-1&cursor=${encodeURIComponent(cursor)}`);
    t.equal(otherFilter.statusCode, 400, 'a cursor is bound to its filters');
    t.equal((await get(`/api/public/products?limit=1&cursor=${encodeURIComponent(cursor)}`)).statusCode, 200);
  });

  t.test('ETag, Cache-Control and 304', async (t) => {
    for (const url of ['/api/public/products', '/api/public/stock', `/api/public/fleet`, `/api/public/fleet/${garage.vehicleIds['V-1']}`]) {
      const res = await get(url);
      t.equal(res.statusCode, 200, url);
      const etag = res.headers.etag as string;
      t.match(etag, /^"[^"]+"$/, 'a strong, quoted ETag');
      t.equal(res.headers['cache-control'], 'private, no-cache');
      t.equal((await get(url)).headers.etag, etag, 'stable for the same body');
      const notModified = await get(url, { 'x-api-key': key, 'if-none-match': etag });
      t.equal(notModified.statusCode, 304, url);
      t.equal(notModified.body, '');
      t.equal(notModified.headers.etag, etag);
      t.equal(notModified.headers['cache-control'], 'private, no-cache');
      const list = await get(url, { 'x-api-key': key, 'if-none-match': `"nope", ${etag}` });
      t.equal(list.statusCode, 304, 'one of a list');
      const stale = await get(url, { 'x-api-key': key, 'if-none-match': '"stale"' });
      t.equal(stale.statusCode, 200);
      t.ok(stale.body.length > 0);
    }
    const before = (await get('/api/public/stock')).headers.etag;
    await admin.importStock(garage.slug, [{ sku: 'A-1', quantity: 6 }]);
    const after = await get('/api/public/stock', { 'x-api-key': key, 'if-none-match': before as string });
    t.equal(after.statusCode, 200, 'a change gives a new ETag');
    t.not(after.headers.etag, before);
    const error = await get('/api/public/products?limit=0');
    t.equal(error.headers.etag, undefined, 'no ETag on errors');
  });

  t.test('fleet: shape, order, filters, sold vehicles hidden', async (t) => {
    const res = await get(`/api/public/fleet?garageSlug=${garage.slug}`, {});
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.equal(body.nextCursor, null);
    const refs = body.data.map((v: { reference: string }) => v.reference);
    t.same([...refs].sort(), ['V-1', 'V-2', 'V-3'], 'sold vehicle not listed');
    for (const v of body.data) {
      t.same(Object.keys(v).sort(), VEHICLE_FIELDS);
      t.match(v.publishedAt, RFC3339);
      t.match(v.updatedAt, RFC3339);
      t.ok(['available', 'reserved'].includes(v.status));
    }
    const times = body.data.map((v: { publishedAt: string }) => Date.parse(v.publishedAt));
    t.same(times, [...times].sort((a, b) => b - a), 'newest publishedAt first');
    t.same(body.data.find((v: { reference: string }) => v.reference === 'V-1').photos, ['https://img.example/v1.jpg']);
    const slash = await get(`/api/public/fleet/?garageSlug=${garage.slug}`, {});
    t.equal(slash.statusCode, 200, 'a trailing slash is the same list');
    const byMake = await get('/api/public/fleet?make=peugeot');
    t.same(byMake.json().data.map((v: { reference: string }) => v.reference), ['V-1'], 'make is case-insensitive');
    const byFuel = await get('/api/public/fleet?fuel=diesel');
    t.same(byFuel.json().data.map((v: { reference: string }) => v.reference), ['V-2']);
    const badFuel = await get('/api/public/fleet?fuel=steam');
    t.equal(badFuel.statusCode, 400);
    t.equal(badFuel.json().details[0].path, '/fuel');
    t.equal((await get('/api/public/fleet?sku=x')).statusCode, 400, 'unknown parameter');
  });

  t.test('fleet paging', async (t) => {
    await admin.importVehicles(garage.slug, Array.from({ length: 11 }, (_, i) => vehicle(`W-${i}`)));
    const all = await walk('/api/public/fleet', 4);
    t.equal(all.length, 14);
    t.equal(new Set(all.map((v) => v.id)).size, 14);
  });

  t.test('fleet access: key of any integration, or garageSlug', async (t) => {
    t.equal((await get('/api/public/fleet', { 'x-api-key': garage.keys.none })).statusCode, 200, 'no toggle needed');
    t.equal((await get('/api/public/fleet', {})).statusCode, 401, 'neither key nor slug');
    t.equal((await get('/api/public/fleet', {})).json().code, 'UNAUTHORIZED');
    const unknownSlug = await get('/api/public/fleet?garageSlug=no-such-garage', {});
    t.equal(unknownSlug.statusCode, 404);
    t.equal(unknownSlug.json().code, 'NOT_FOUND');
    t.equal((await get('/api/public/fleet?garageSlug=acme', { 'x-api-key': '0123456789abcdef0123456789abcdef' })).statusCode, 401, 'a bad key is not ignored');
    t.equal((await get(`/api/public/fleet/${garage.vehicleIds['V-1']}`, {})).statusCode, 401);
    t.equal((await get(`/api/public/fleet/${garage.vehicleIds['V-1']}?garageSlug=nope`, {})).statusCode, 404);
  });

  t.test('fleet item', async (t) => {
    const id = garage.vehicleIds['V-2'] as string;
    const res = await get(`/api/public/fleet/${id}?garageSlug=${garage.slug}`, {});
    t.equal(res.statusCode, 200);
    t.same(Object.keys(res.json()), ['data']);
    t.equal(res.json().data.id, id);
    t.equal(res.json().data.status, 'reserved');
    t.same(Object.keys(res.json().data).sort(), VEHICLE_FIELDS);
    const withKey = await get(`/api/public/fleet/${id}`);
    t.equal(withKey.statusCode, 200);
    for (const [why, url] of [
      ['sold', `/api/public/fleet/${garage.vehicleIds['V-SOLD']}`],
      ['unknown', '/api/public/fleet/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const missing = await get(url);
      t.equal(missing.statusCode, 404, why);
      t.equal(missing.json().code, 'NOT_FOUND', why);
    }
    const malformed = await get('/api/public/fleet/not-a-uuid');
    t.equal(malformed.statusCode, 400);
    t.equal(malformed.json().details[0].path, '/vehicleId');
    const other = await seedGarage(admin, 'elsewhere');
    const foreign = await get(`/api/public/fleet/${other.vehicleIds['V-1']}`);
    t.equal(foreign.statusCode, 404, "another garage's vehicle");
    const foreignBySlug = await get(`/api/public/fleet/${other.vehicleIds['V-1']}?garageSlug=${garage.slug}`, {});
    t.equal(foreignBySlug.statusCode, 404);
  });
});
