import t from 'tap';
import {
  makeCursorCodec,
  makeListProducts,
  makeListStock,
  makeListVehicles,
  productPosition,
  stockPosition,
  vehiclePosition,
  type KeysetPosition,
  type ProductListQuery,
} from '../src/index.js';
import { makeInMemoryCatalog, productRow, testClock, vehicleRow } from '../src/testing/index.js';

const GARAGE = '7d1f6a4e-0000-4000-8000-000000000001';
const cursors = makeCursorCodec(Buffer.alloc(32, 7));

/** A catalog with `count` products, each written a second after the one before. */
const catalogOf = async (count: number, extra: (i: number) => object = () => ({})) => {
  const clock = testClock('2026-11-01T08:00:00Z');
  const catalog = makeInMemoryCatalog({ clock });
  for (let i = 1; i <= count; i++) {
    await catalog.products.upsertMany(GARAGE, [productRow(i, extra(i))], 'EUR');
    clock.advance(1000);
  }
  return { catalog, clock };
};

t.test('a page reads one row more than it keeps, and its cursor is where the last item kept stands', async (t) => {
  const { catalog } = await catalogOf(5);
  const asked: { after: KeysetPosition | null; limit: number }[] = [];
  const products = { list: (q: ProductListQuery) => (asked.push({ after: q.after, limit: q.limit }), catalog.products.list(q)) };
  const list = makeListProducts({ products, cursors, positionOf: productPosition });
  const query = { garageId: GARAGE, updatedSince: null, sku: null, limit: 2 };

  const first = await list({ ...query, cursor: null });
  t.same(first.data.map((p) => p.sku), ['SKU-001', 'SKU-002']);
  t.same(asked, [{ after: null, limit: 3 }]);
  const second = await list({ ...query, cursor: first.nextCursor });
  t.same(second.data.map((p) => p.sku), ['SKU-003', 'SKU-004']);
  t.same(asked[1], { after: productPosition(first.data[1]!), limit: 3 });
  const last = await list({ ...query, cursor: second.nextCursor });
  t.same(last.data.map((p) => p.sku), ['SKU-005']);
  t.equal(last.nextCursor, null, 'the last page has no next cursor');
  t.equal((await list({ ...query, limit: 5, cursor: null })).nextCursor, null, 'a page that holds every remaining row is the last');
});

t.test('a cursor of another list or other filters is refused before any read', async (t) => {
  const { catalog } = await catalogOf(3);
  let reads = 0;
  const list = makeListProducts({ products: { list: (q) => (reads++, catalog.products.list(q)) }, cursors, positionOf: productPosition });
  const { nextCursor } = await list({ garageId: GARAGE, updatedSince: null, sku: null, limit: 1, cursor: null });
  await t.rejects(list({ garageId: GARAGE, updatedSince: null, sku: 'SKU-001', limit: 1, cursor: nextCursor }), { code: 'VALIDATION_FAILED' });
  t.equal(reads, 1);
});

t.test('without updatedSince only active products are listed; with it, inactive ones too', async (t) => {
  const { catalog } = await catalogOf(3, (i) => ({ active: i !== 2 }));
  const list = makeListProducts({ products: catalog.products, cursors, positionOf: productPosition });
  const skus = async (updatedSince: Date | null) =>
    (await list({ garageId: GARAGE, updatedSince, sku: null, limit: 10, cursor: null })).data.map((p) => [p.sku, p.active]);
  t.same(await skus(null), [['SKU-001', true], ['SKU-003', true]]);
  t.same(await skus(new Date(0)), [['SKU-001', true], ['SKU-002', false], ['SKU-003', true]]);
});

t.test('stock lists one item per product, moved by a changed quantity only', async (t) => {
  const { catalog, clock } = await catalogOf(2);
  await catalog.stock.setQuantities(GARAGE, [{ sku: 'SKU-001', quantity: 4 }, { sku: 'SKU-002', quantity: 0 }]);
  const list = makeListStock({ stock: catalog.stock, cursors, positionOf: stockPosition });
  const page = await list({ garageId: GARAGE, updatedSince: null, sku: null, limit: 10, cursor: null });
  t.same(page.data.map((s) => [s.sku, s.quantity]), [['SKU-002', 0], ['SKU-001', 4]], 'SKU-002 kept its updatedAt');
  t.equal(page.data[1]?.updatedAt.getTime(), clock.nowMs());
  await t.rejects(catalog.stock.setQuantities(GARAGE, [{ sku: 'NOPE', quantity: 1 }]), { code: 'INVALID_REFERENCE' });
});

t.test('the fleet lists vehicles that are not sold, newest published first', async (t) => {
  const clock = testClock('2026-11-01T08:00:00Z');
  const { vehicles } = makeInMemoryCatalog({ clock });
  for (const i of [1, 2, 3]) {
    await vehicles.upsertMany(GARAGE, [vehicleRow(i, { status: i === 2 ? 'sold' : 'available' })], 'EUR');
    clock.advance(1000);
  }
  const list = makeListVehicles({ vehicles, cursors, positionOf: vehiclePosition });
  const page = await list({ garageId: GARAGE, updatedSince: null, make: 'PEUGEOT', fuel: null, limit: 1, cursor: null });
  t.same(page.data.map((v) => v.reference), ['VO-003']);
  const next = await list({ garageId: GARAGE, updatedSince: null, make: 'PEUGEOT', fuel: null, limit: 1, cursor: page.nextCursor });
  t.same(next.data.map((v) => v.reference), ['VO-001']);
  t.equal(next.nextCursor, null);
});

t.test('a list\'s version moves when a write changes what the list shows', async (t) => {
  const { catalog, clock } = await catalogOf(1);
  const version = async () => (await catalog.listVersions.versions('stock', [GARAGE, 'another garage'])).get(GARAGE);
  const before = await version();
  t.equal((await catalog.listVersions.versions('vehicles', ['another garage'])).get('another garage'), 'none');
  await catalog.stock.setQuantities(GARAGE, [{ sku: 'SKU-001', quantity: 0 }]);
  t.equal(await version(), before, 'an unchanged quantity is no change');
  clock.advance(1000);
  await catalog.stock.setQuantities(GARAGE, [{ sku: 'SKU-001', quantity: 2 }]);
  t.not(await version(), before);
});
