import { hash } from 'node:crypto';
import type { KeysetPosition } from '@garage/domain';
import { makeRepositories } from '@garage/postgres';
import { API_VERSIONS, makeRegistry, type Json } from '@garage/versions';
import Fastify from 'fastify';
import type { TSchema } from 'typebox';
import t from 'tap';
import { Page } from '../src/schemas/list.js';
import { Product, StockItem } from '../src/schemas/product.js';
import { Vehicle } from '../src/schemas/vehicle.js';
import { build, FIRST_VERSION, product, seedGarage, vehicle } from './helper.js';

/** Characters JSON must escape (quote, backslash, controls) beside some it must leave alone. */
const AWKWARD = 'Pads "pro" \\ / \n\t\u0001 é 漢字 🚗 \u2028';

/**
 * Pages are assembled from the rows' rendered items; these tests hold them to the bytes the route's serialiser wrote
 * from domain objects before: Fastify serialising `{data, nextCursor}` with the route's own 200 schema.
 */
t.test('an uncached page is byte for byte what the route serialised from objects', async (t) => {
  const { app, admin, db } = await build(t);
  const garage = await seedGarage(admin);
  await admin.importProducts(garage.slug, [
    product('D-4', { name: AWKWARD, description: AWKWARD, brand: 'Total', category: 'Fluids', vatRate: 5.5, unit: 'litre' }),
    product('E-5', { active: false, vatRate: 19.6, currency: 'CHF' }),
  ]);
  await admin.importStock(garage.slug, [{ sku: 'D-4', quantity: 7 }]);
  await admin.importVehicles(garage.slug, [
    vehicle('V-4', { version: AWKWARD, color: 'Blue', description: AWKWARD, photos: ['https://img.example/a.jpg', 'https://img.example/b.jpg?w=640&h=480'] }),
  ]);
  const { id: garageId } = await db.handle.db.selectFrom('garages').select('id').where('slug', '=', garage.slug).executeTakeFirstOrThrow();
  const repos = makeRepositories(db.handle.db);

  // The serialiser the routes used for their 200 before: one route per item schema, answering what it is handed.
  const reference = Fastify();
  let handed: unknown = null;
  for (const [path, item] of [['/products', Product], ['/stock', StockItem], ['/fleet', Vehicle]] as [string, TSchema][]) {
    reference.get(path, { schema: { response: { 200: Page(item) } } }, async () => handed);
  }
  t.teardown(() => reference.close());
  const serialised = async (path: string, data: object[], nextCursor: string | null) => {
    handed = { data, nextCursor };
    return (await reference.inject({ method: 'GET', url: path })).body;
  };

  /** Walks `url` two items a page; each page must be the reference's rendering of the same rows. */
  const walk = async <T extends object>(
    url: string,
    headers: Record<string, string>,
    path: string,
    rows: (after: KeysetPosition | null, limit: number) => Promise<T[]>,
    positionOf: (item: T) => KeysetPosition,
  ) => {
    let cursor: string | null = null;
    let after: KeysetPosition | null = null;
    let pages = 0;
    do {
      const pageUrl: string = `${url}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await app.inject({ method: 'GET', url: pageUrl, headers });
      t.equal(res.statusCode, 200, url);
      t.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const objects = (await rows(after, 3)).slice(0, 2);
      cursor = (res.json() as { nextCursor: string | null }).nextCursor;
      t.equal(res.body, await serialised(path, objects, cursor), `${url}, page ${pages + 1}`);
      t.equal(res.headers.etag, `"${hash('sha256', res.rawPayload, 'base64url')}"`, 'the ETag hashes the bytes sent');
      const last = objects.at(-1);
      after = last ? positionOf(last) : null;
      pages += 1;
    } while (cursor !== null);
    return pages;
  };

  const key = { 'x-api-key': garage.keys.all };
  const since = new Date(0);
  t.equal(
    await walk('/api/public/products?sku=D-4', key, '/products', (after, limit) =>
      repos.products.list({ garageId, limit, after, updatedSince: null, sku: 'D-4', includeInactive: false }), (p) => ({ sortValue: p.updatedAt, id: p.id })),
    1,
  );
  t.equal(
    await walk('/api/public/products?updatedSince=1970-01-01T00:00:00Z', key, '/products', (after, limit) =>
      repos.products.list({ garageId, limit, after, updatedSince: since, sku: null, includeInactive: true }), (p) => ({ sortValue: p.updatedAt, id: p.id })),
    3,
  );
  t.equal(
    await walk('/api/public/stock?updatedSince=1970-01-01T00:00:00Z', key, '/stock', (after, limit) =>
      repos.stock.list({ garageId, limit, after, updatedSince: since, sku: null }), (s) => ({ sortValue: s.updatedAt, id: s.productId })),
    3,
  );
  t.equal(
    await walk(`/api/public/fleet?garageSlug=${garage.slug}`, {}, '/fleet', (after, limit) =>
      repos.vehicles.list({ garageId, limit, after, updatedSince: null, make: null, fuel: null }), (v) => ({ sortValue: v.publishedAt, id: v.id })),
    2,
  );
});

t.test('a version change that alters a list still reaches its pages: they pass through its transform', async (t) => {
  const renamed = (body: Json): Json => ({
    ...body,
    data: (body.data as Json[]).map(({ priceCents, ...item }) => ({ ...item, price: priceCents })),
  });
  const registry = makeRegistry({
    first: FIRST_VERSION,
    changes: [
      ...API_VERSIONS.versions.flatMap((v) => v.changes),
      {
        version: '2099-01-01',
        description: 'A change made up for this test.',
        responses: { 'GET /api/public/products': { 200: { schema: Page(Product), toPrevious: renamed } } },
      },
    ],
  });
  const { app, admin } = await build(t, { apiVersions: registry });
  const garage = await seedGarage(admin);
  await app.ready();
  // Chained inject: the committed documents describe the real registry, which has no such change.
  const get = (version: string) =>
    app.inject().get('/api/public/products?limit=2').headers({ 'x-api-key': garage.keys.all, 'garage-version': version }).end();
  const newest = await get('2099-01-01');
  const older = await get(FIRST_VERSION);
  t.equal(newest.statusCode, 200);
  t.equal(older.statusCode, 200);
  t.same(older.json(), renamed(newest.json()), 'the older version gets the page through the transform');
  t.equal(older.headers.etag, `"${hash('sha256', older.rawPayload, 'base64url')}"`, 'and an ETag of its own bytes');
  t.not(older.headers.etag, newest.headers.etag);
});
