import { randomUUID } from 'node:crypto';
import type { Repositories, StockItem, StockListQuery } from '@garage/domain';
import { newGarage, productRow } from '@garage/domain/testing';
import { occurrences, walk, type Contract } from './harness.js';

const listAll = (repos: Repositories, query: Partial<StockListQuery> & { garageId: string }, limit = 1000) =>
  walk(
    (after, pageLimit) => repos.stock.list({ limit: pageLimit, after, updatedSince: null, sku: null, ...query }),
    (s: StockItem) => ({ sortValue: s.updatedAt, id: s.productId }),
    { limit },
  );

const quantities = (items: StockItem[]) => Object.fromEntries(items.map((s) => [s.sku, s.quantity]));

export const stockRepositoryContract: Contract<'repos' | 'uow'> = (t, { repos, uow }) => {
  t.test('quantities are set by sku; unchanged ones keep their updated_at', async (t) => {
    const garage = await newGarage(repos);
    const ids = await repos.products.upsertMany(garage.id, [productRow(1), productRow(2), productRow(3)], 'EUR');
    const set = await repos.stock.setQuantities(garage.id, [
      { sku: 'SKU-001', quantity: 5 },
      { sku: 'SKU-002', quantity: 0 },
    ]);
    t.same(set, { 'SKU-001': ids['SKU-001'], 'SKU-002': ids['SKU-002'] });
    const before = await listAll(repos, { garageId: garage.id });
    t.same(quantities(before), { 'SKU-001': 5, 'SKU-002': 0, 'SKU-003': 0 });
    t.equal(before.at(-1)?.sku, 'SKU-001', 'the changed item moved to the end of the sync order');
    await repos.stock.setQuantities(garage.id, [{ sku: 'SKU-001', quantity: 5 }, { sku: 'SKU-003', quantity: 7 }]);
    const after = await listAll(repos, { garageId: garage.id });
    const at = (items: StockItem[], sku: string) => items.find((s) => s.sku === sku)?.updatedAt.getTime();
    t.equal(at(after, 'SKU-001'), at(before, 'SKU-001'));
    t.ok((at(after, 'SKU-003') ?? 0) > (at(before, 'SKU-003') ?? Infinity));
  });

  t.test('an import with an unknown sku fails naming it, and writes nothing', async (t) => {
    const garage = await newGarage(repos);
    await repos.products.upsertMany(garage.id, [productRow(1), productRow(2)], 'EUR');
    await t.rejects(
      uow.run((tx) =>
        tx.stock.setQuantities(garage.id, [
          { sku: 'SKU-001', quantity: 4 },
          { sku: 'NOPE', quantity: 1 },
          { sku: 'SKU-002', quantity: 9 },
        ]),
      ),
      { code: 'INVALID_REFERENCE', details: [{ path: '/1/sku', message: /NOPE/ }] },
    );
    t.same(quantities(await listAll(repos, { garageId: garage.id })), { 'SKU-001': 0, 'SKU-002': 0 });
  });

  t.test('walking the pages returns every item exactly once, even those updated mid-walk', async (t) => {
    const garage = await newGarage(repos);
    const rows = Array.from({ length: 20 }, (_, i) => productRow(i + 1));
    await repos.products.upsertMany(garage.id, rows, 'EUR');
    const updated: string[] = [];
    const seen = await walk(
      (after, limit) => repos.stock.list({ garageId: garage.id, limit, after, updatedSince: null, sku: null }),
      (s) => ({ sortValue: s.updatedAt, id: s.productId }),
      {
        limit: 6,
        between: async (seenSoFar) => {
          const seenSkus = new Set(seenSoFar.map((s) => s.sku));
          const next = rows.find((r) => !seenSkus.has(r.sku) && !updated.includes(r.sku));
          if (!next) return;
          updated.push(next.sku);
          await repos.stock.setQuantities(garage.id, [{ sku: next.sku, quantity: 42 }]);
        },
      },
    );
    t.ok(updated.length >= 2, 'the walk wrote between pages');
    t.same(Object.values(occurrences(seen.map((s) => s.sku))), Array(20).fill(1));
    t.ok(seen.filter((s) => updated.includes(s.sku)).every((s) => s.quantity === 42));
  });

  t.test('filters: sku, updatedSince', async (t) => {
    const garage = await newGarage(repos);
    await repos.products.upsertMany(garage.id, [productRow(1), productRow(2)], 'EUR');
    const [first] = await listAll(repos, { garageId: garage.id });
    await repos.stock.setQuantities(garage.id, [{ sku: 'SKU-002', quantity: 3 }]);
    const bySku = await listAll(repos, { garageId: garage.id, sku: 'SKU-002' });
    t.same(bySku.map((s) => [s.sku, s.quantity]), [['SKU-002', 3]]);
    const [changed] = bySku;
    const since = async (at: Date | undefined) =>
      (await listAll(repos, { garageId: garage.id, updatedSince: at ?? null })).map((s) => s.sku).sort();
    t.same(await since(changed?.updatedAt), ['SKU-002']);
    t.same(await since(first?.updatedAt), ['SKU-001', 'SKU-002'], 'inclusive');
    t.same(await listAll(repos, { garageId: 'not-a-uuid' }), []);
  });

  t.test('stock of a garage that does not exist is INVALID_REFERENCE', async (t) => {
    const rows = [{ sku: 'SKU-001', quantity: 1 }];
    await t.rejects(repos.stock.setQuantities(randomUUID(), rows), { code: 'INVALID_REFERENCE' });
    await t.rejects(repos.stock.setQuantities('not-a-uuid', []), { code: 'INVALID_REFERENCE' });
  });
};
