import { makeInMemoryCatalog, productRow, testClock } from '@garage/domain/testing';
import t from 'tap';
import { outOfStockReport } from '../src/out-of-stock.js';

const GARAGE = '7d1f6a4e-0000-4000-8000-000000000002';

t.test('the report names the active products whose stock is 0, over the domain\'s in-memory catalog', async (t) => {
  const catalog = makeInMemoryCatalog({ clock: testClock('2026-11-27T02:00:00Z') });
  await catalog.products.upsertMany(GARAGE, [productRow(1), productRow(2), productRow(3, { active: false }), productRow(4)], 'EUR');
  await catalog.stock.setQuantities(GARAGE, [{ sku: 'SKU-001', quantity: 5 }]);
  t.same(await outOfStockReport(catalog, GARAGE), {
    products: 3,
    outOfStock: [
      { sku: 'SKU-002', name: 'Product 2' },
      { sku: 'SKU-004', name: 'Product 4' },
    ],
  });
});
