import { productPosition, stockPosition, vehiclePosition, type ProductListQuery, type StockListQuery, type VehicleListQuery } from '@garage/domain';
import { newGarage, productRow, vehicleRow } from '@garage/domain/testing';
import { sql } from 'kysely';
import { makeRenderedLists } from '../../list-items/rendered-lists.js';
import type { Contract, ContractContext, Tap } from './harness.js';

/** Characters JSON must escape (quote, backslash, controls) beside some it must leave alone. */
const AWKWARD = 'Pads "pro" \\ / \n\t\r\b\f \u0001\u001f\u007f é ñ 漢字 🚗 \u2028 <tag> &';

/**
 * The rendered list holds the rows `list` reads, in its order, each item byte for byte the JSON of the row as the
 * domain reads it: what the API's serialiser wrote from that object before pages were assembled from rendered rows
 * (its schemas derive from the same item shapes, keys in their order, and it writes times as `toISOString` does), and
 * where each item stands is where the domain's object stands, for the cursor.
 */
const sameRendering = (t: Tap, items: string[], objects: object[]) =>
  t.same(items, objects.map((item) => JSON.stringify(item)), 'each item is the JSON of its row');

const products = ({ reads, handle }: Pick<ContractContext, 'reads' | 'handle'>, garageId: string) => {
  const query: ProductListQuery = { garageId, limit: 100, after: null, updatedSince: null, sku: null, includeInactive: true };
  const rendered = makeRenderedLists(handle.db).products;
  return async (t: Tap) => {
    const objects = await reads.products.list(query);
    const items = await rendered.list(query);
    sameRendering(t, items, objects);
    t.same(items.map(rendered.positionOf), objects.map(productPosition), 'each item stands where its row does');
    return objects;
  };
};

const stock = ({ reads, handle }: Pick<ContractContext, 'reads' | 'handle'>, garageId: string) => {
  const query: StockListQuery = { garageId, limit: 100, after: null, updatedSince: null, sku: null };
  const rendered = makeRenderedLists(handle.db).stock;
  return async (t: Tap) => {
    const objects = await reads.stock.list(query);
    const items = await rendered.list(query);
    sameRendering(t, items, objects);
    t.same(items.map(rendered.positionOf), objects.map(stockPosition), 'each item stands where its row does');
    return objects;
  };
};

const vehicles = ({ reads, handle }: Pick<ContractContext, 'reads' | 'handle'>, garageId: string) => {
  const query: VehicleListQuery = { garageId, limit: 100, after: null, updatedSince: null, make: null, fuel: null };
  const rendered = makeRenderedLists(handle.db).vehicles;
  return async (t: Tap) => {
    const objects = await reads.vehicles.list(query);
    const items = await rendered.list(query);
    sameRendering(t, items, objects);
    t.same(items.map(rendered.positionOf), objects.map(vehiclePosition), 'each item stands where its row does');
    return objects;
  };
};

/** Every write to a list's table renders its item again: inserts, updates, imports' upserts and stock batches alike. */
export const listItemsContract: Contract = (t, ctx) => {
  const { repos, handle } = ctx;

  t.test('a product is rendered on insert, import upsert and any update', async (t) => {
    const garage = await newGarage(repos);
    const check = products(ctx, garage.id);
    await repos.products.upsertMany(
      garage.id,
      [
        productRow(1),
        productRow(2, { name: AWKWARD, description: AWKWARD, category: 'Fluids', brand: 'Total', vatRate: 5.5, unit: 'litre' }),
        productRow(3, { active: false, vatRate: 0, priceCents: 0 }),
      ],
      'EUR',
    );
    t.equal((await check(t)).length, 3);
    await repos.products.upsertMany(garage.id, [productRow(1, { name: 'Renamed', vatRate: 19.6, currency: 'CHF' })], 'EUR');
    t.equal((await check(t)).find((p) => p.sku === 'SKU-001')?.vatRate, 19.6);
    await handle.db
      .updateTable('products')
      .set({ brand: null, price_cents: 9_007_199_254_740_991, updated_at: sql<Date>`'2026-01-02 03:04:05.678999+00'` })
      .where('garage_id', '=', garage.id)
      .where('sku', '=', 'SKU-002')
      .execute();
    const [first] = await check(t);
    t.equal(first?.updatedAt.toISOString(), '2026-01-02T03:04:05.678Z', 'microseconds are dropped as the driver drops them');
  });

  t.test('a stock item is rendered on insert and on a stock batch, and follows its product\'s sku', async (t) => {
    const garage = await newGarage(repos);
    const check = stock(ctx, garage.id);
    await repos.products.upsertMany(garage.id, [productRow(1), productRow(2, { sku: AWKWARD })], 'EUR');
    t.equal((await check(t)).length, 2);
    await repos.stock.setQuantities(garage.id, [{ sku: 'SKU-001', quantity: 12 }, { sku: AWKWARD, quantity: 2_147_483_647 }]);
    t.same((await check(t)).map((s) => s.quantity).sort(), [12, 2_147_483_647]);
    await handle.db.updateTable('products').set({ sku: 'SKU-RENAMED' }).where('garage_id', '=', garage.id).where('sku', '=', 'SKU-001').execute();
    t.ok((await check(t)).some((s) => s.sku === 'SKU-RENAMED'));
  });

  t.test('a vehicle is rendered on insert, import upsert and any update', async (t) => {
    const garage = await newGarage(repos);
    const check = vehicles(ctx, garage.id);
    await repos.vehicles.upsertMany(
      garage.id,
      [
        vehicleRow(1),
        vehicleRow(2, {
          version: AWKWARD,
          color: 'Blue',
          description: AWKWARD,
          photos: ['https://img.example/1.jpg', 'https://img.example/é "2".jpg', 'https://img.example/\\3.jpg'],
          status: 'reserved',
        }),
      ],
      'EUR',
    );
    t.equal((await check(t)).length, 2);
    await repos.vehicles.upsertMany(garage.id, [vehicleRow(1, { photos: ['https://img.example/only.jpg'], mileageKm: 0 })], 'EUR');
    t.same((await check(t)).find((v) => v.reference === 'VO-001')?.photos, ['https://img.example/only.jpg']);
    await handle.db
      .updateTable('vehicles')
      .set({ make: AWKWARD, published_at: sql<Date>`'0999-12-31 23:59:59.999+00'` })
      .where('garage_id', '=', garage.id)
      .where('reference', '=', 'VO-002')
      .execute();
    t.equal((await check(t)).at(-1)?.make, AWKWARD);
  });
};
