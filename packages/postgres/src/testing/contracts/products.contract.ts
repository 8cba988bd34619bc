import { randomUUID } from 'node:crypto';
import { makeCursorCodec, makeListProducts, productPosition, type Product, type ProductListQuery, type Repositories } from '@garage/domain';
import { newGarage, productRow } from '@garage/domain/testing';
import { occurrences, walk, type Contract } from './harness.js';

const listAll = (repos: Repositories, query: Partial<ProductListQuery> & { garageId: string }) =>
  walk(
    (after, limit) =>
      repos.products.list({ limit, after, updatedSince: null, sku: null, includeInactive: false, ...query }),
    (p: Product) => ({ sortValue: p.updatedAt, id: p.id }),
    { limit: 1000 },
  );

const OIL = { description: 'Oil', category: 'Fluids', brand: 'Total' };

export const productRepositoryContract: Contract<'repos'> = (t, { repos }) => {
  t.test('upsert applies the defaults, returns sku → id, and lists products mapped to the domain', async (t) => {
    const garage = await newGarage(repos, 'CHF');
    const ids = await repos.products.upsertMany(
      garage.id,
      [
        productRow(1),
        productRow(2, { ...OIL, currency: 'EUR', vatRate: 5.5, unit: 'litre' }),
      ],
      garage.currency,
    );
    t.same(Object.keys(ids).sort(), ['SKU-001', 'SKU-002']);
    const listed = await listAll(repos, { garageId: garage.id });
    const first = listed.find((p) => p.sku === 'SKU-001');
    const second = listed.find((p) => p.sku === 'SKU-002');
    t.same(first, {
      id: ids['SKU-001'],
      sku: 'SKU-001',
      name: 'Product 1',
      description: null,
      category: null,
      brand: null,
      priceCents: 1001,
      currency: 'CHF',
      vatRate: 20,
      unit: 'piece',
      active: true,
      updatedAt: first?.updatedAt,
    });
    t.match(second, { ...OIL, currency: 'EUR', vatRate: 5.5, unit: 'litre' });
    t.type(first?.updatedAt, Date);
  });

  t.test('walking the pages returns every product exactly once, even those updated mid-walk', async (t) => {
    const garage = await newGarage(repos);
    for (const batch of [[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15, 16, 17], [18, 19, 20, 21, 22, 23, 24, 25]]) {
      await repos.products.upsertMany(garage.id, batch.map((i) => productRow(i)), 'EUR');
    }
    const updated: string[] = [];
    const seen = await walk(
      (after, limit) =>
        repos.products.list({ garageId: garage.id, limit, after, updatedSince: null, sku: null, includeInactive: false }),
      (p) => ({ sortValue: p.updatedAt, id: p.id }),
      {
        limit: 7,
        between: async (seenSoFar) => {
          const seenSkus = new Set(seenSoFar.map((p) => p.sku));
          const unseen = Array.from({ length: 25 }, (_, i) => productRow(i + 1)).filter((p) => !seenSkus.has(p.sku));
          const toUpdate = unseen.slice(0, 2).map((p) => ({ ...p, priceCents: 1 }));
          updated.push(...toUpdate.map((p) => p.sku));
          await repos.products.upsertMany(garage.id, toUpdate, 'EUR');
        },
      },
    );
    t.ok(updated.length >= 4, 'the walk wrote between pages');
    t.same(Object.values(occurrences(seen.map((p) => p.sku))), Array(25).fill(1));
    const updatedSeen = seen.filter((p) => updated.includes(p.sku));
    t.ok(updatedSeen.every((p) => p.priceCents === 1), 'updated products show their new version');
  });

  t.test('each catalog write is strictly later than the previous one, so that no cursor can skip it', async (t) => {
    const garage = await newGarage(repos);
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      await repos.products.upsertMany(garage.id, [productRow(i)], 'EUR');
      const [product] = await listAll(repos, { garageId: garage.id, sku: productRow(i).sku });
      times.push(product?.updatedAt.getTime() ?? 0);
    }
    t.ok(times.every((time, i) => i === 0 || time > (times[i - 1] ?? Infinity)), times.join(' < '));
  });

  t.test('a re-import keeps updated_at of unchanged products and bumps the changed ones', async (t) => {
    const garage = await newGarage(repos);
    const rows = [productRow(1), productRow(2), productRow(3, { description: null })];
    const ids = await repos.products.upsertMany(garage.id, rows, 'EUR');
    const before = await listAll(repos, { garageId: garage.id });
    const again = await repos.products.upsertMany(garage.id, [rows[0]!, { ...rows[1]!, name: 'Renamed' }, rows[2]!], 'EUR');
    t.same(again, ids, 'unchanged products still report their id');
    const after = await listAll(repos, { garageId: garage.id });
    const at = (list: Product[], sku: string) => list.find((p) => p.sku === sku)?.updatedAt.getTime();
    t.equal(at(after, 'SKU-001'), at(before, 'SKU-001'));
    t.equal(at(after, 'SKU-003'), at(before, 'SKU-003'));
    t.ok((at(after, 'SKU-002') ?? 0) > (at(before, 'SKU-002') ?? Infinity));
    t.equal(after.at(-1)?.name, 'Renamed', 'the changed product moved to the end of the sync order');
  });

  t.test('without updatedSince only active products are listed; with it, inactive ones too', async (t) => {
    const garage = await newGarage(repos);
    await repos.products.upsertMany(garage.id, [productRow(1), productRow(2, { active: false })], 'EUR');
    const list = makeListProducts({ products: repos.products, cursors: makeCursorCodec(Buffer.alloc(32, 1)), positionOf: productPosition });
    const page = (updatedSince: Date | null) =>
      list({ garageId: garage.id, limit: 10, cursor: null, updatedSince, sku: null });
    const products = async (updatedSince: Date | null) => (await page(updatedSince)).data;
    t.same((await products(null)).map((p) => p.sku), ['SKU-001']);
    const since = await products(new Date(0));
    t.same(since.map((p) => [p.sku, p.active]).sort(), [['SKU-001', true], ['SKU-002', false]]);
    t.same(await products(new Date(Date.now() + 60_000)), [], 'updatedSince is a lower bound');
  });

  t.test('the sku filter is exact', async (t) => {
    const garage = await newGarage(repos);
    await repos.products.upsertMany(garage.id, [productRow(1), productRow(10)], 'EUR');
    t.same((await listAll(repos, { garageId: garage.id, sku: 'SKU-001' })).map((p) => p.sku), ['SKU-001']);
    t.same(await listAll(repos, { garageId: garage.id, sku: 'SKU-00' }), []);
  });

  t.test('new products get a stock row with quantity 0', async (t) => {
    const garage = await newGarage(repos);
    const ids = await repos.products.upsertMany(garage.id, [productRow(1)], 'EUR');
    const [item] = await repos.stock.list({ garageId: garage.id, limit: 10, after: null, updatedSince: null, sku: null });
    t.match(item, { productId: ids['SKU-001'], sku: 'SKU-001', quantity: 0, updatedAt: Date });
  });

  t.test('existing ids are those of the garage; foreign, unknown and malformed ids are dropped', async (t) => {
    const garage = await newGarage(repos);
    const other = await newGarage(repos);
    const mine = await repos.products.upsertMany(garage.id, [productRow(1)], 'EUR');
    const theirs = await repos.products.upsertMany(other.id, [productRow(1)], 'EUR');
    const candidates = [mine['SKU-001']!, theirs['SKU-001']!, randomUUID(), 'not-a-uuid'];
    t.same(await repos.products.findExistingIds(garage.id, candidates), [mine['SKU-001']]);
    t.same(await repos.products.findExistingIds(garage.id, ['not-a-uuid']), []);
    t.same(await listAll(repos, { garageId: 'not-a-uuid' }), []);
  });

  t.test('products of a garage that does not exist are INVALID_REFERENCE', async (t) => {
    await t.rejects(repos.products.upsertMany(randomUUID(), [productRow(1)], 'EUR'), { code: 'INVALID_REFERENCE' });
  });
};
