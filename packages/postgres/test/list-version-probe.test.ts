import t from 'tap';
import type { ListName } from '@garage/domain';
import { makeUnitOfWork } from '../src/repositories/index.js';
import { makeListVersionProbe } from '../src/repositories/list-version-probe.js';
import { newGarage, productRow, vehicleRow, sleep } from '@garage/domain/testing';
import { backends, eachCallCommitted } from '@garage/postgres/testing';

for (const backend of backends) {
  t.test(backend.name, async (t) => {
    const { handle, drop } = await backend.open();
    t.teardown(drop);
    const repos = eachCallCommitted(makeUnitOfWork(handle.db));
    const probe = makeListVersionProbe(handle.db);
    const version = async (list: ListName, garageId: string) => (await probe.versions(list, [garageId])).get(garageId);

    t.test('every write a list can show moves its version, and only that list of that garage', async (t) => {
      const garage = await newGarage(repos);
      const other = await newGarage(repos);
      const initial = { products: await version('products', garage.id), stock: await version('stock', garage.id) };
      t.type(initial.products, 'string', 'a garage without rows has a version too');
      const otherBefore = await version('products', other.id);

      await repos.products.upsertMany(garage.id, [productRow(1), productRow(2)], 'EUR');
      const afterInsert = { products: await version('products', garage.id), stock: await version('stock', garage.id) };
      t.not(afterInsert.products, initial.products, 'new products');
      t.not(afterInsert.stock, initial.stock, 'new products have stock rows');
      t.equal(await version('products', other.id), otherBefore, "another garage's version stays");

      await repos.products.upsertMany(garage.id, [productRow(2)], 'EUR');
      t.equal(await version('products', garage.id), afterInsert.products, 'an import that changes nothing changes no version');

      await repos.products.upsertMany(garage.id, [productRow(1, { active: false })], 'EUR');
      const afterDeactivate = await version('products', garage.id);
      t.not(afterDeactivate, afterInsert.products, 'a deactivation (it leaves the list without updatedSince)');

      await repos.stock.setQuantities(garage.id, [{ sku: 'SKU-002', quantity: 9 }]);
      t.not(await version('stock', garage.id), afterInsert.stock, 'a quantity');
      t.equal(await version('products', garage.id), afterDeactivate, 'stock is not the products list');
    });

    t.test('vehicles: new ones, edits and sales', async (t) => {
      const garage = await newGarage(repos);
      const empty = await version('vehicles', garage.id);
      await repos.vehicles.upsertMany(garage.id, [vehicleRow(1), vehicleRow(2)], 'EUR');
      const listed = await version('vehicles', garage.id);
      t.not(listed, empty, 'new vehicles');
      // Vehicle writes are stamped with the transaction's start at millisecond precision: keep two writes apart.
      await sleep(5);
      await repos.vehicles.upsertMany(garage.id, [vehicleRow(2, { status: 'sold' })], 'EUR');
      t.not(await version('vehicles', garage.id), listed, 'a sale (the vehicle leaves the list)');
    });

    t.test('one query answers many garages, malformed ids included', async (t) => {
      const first = await newGarage(repos);
      const second = await newGarage(repos);
      await repos.products.upsertMany(second.id, [productRow(1)], 'EUR');
      const versions = await probe.versions('products', [first.id, second.id, 'not-a-uuid', first.id]);
      t.same([...versions.keys()].sort(), [first.id, second.id, 'not-a-uuid'].sort());
      t.equal(versions.get(first.id), await version('products', first.id));
      t.equal(versions.get(second.id), await version('products', second.id));
      t.not(versions.get(first.id), versions.get(second.id));
      t.same(await probe.versions('stock', []), new Map(), 'nothing asked, nothing queried');
    });
  });
}
