import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { newGarage, productRow } from '@garage/domain/testing';
import { makeRepositories, makeUnitOfWork } from '@garage/postgres';
import { createTestDatabase } from '@garage/postgres/testing';
import t from 'tap';

const run = promisify(execFile);
const MAIN = new URL('../src/main.ts', import.meta.url).pathname;
const RESOLVE_TS = new URL('../../../scripts/test/resolve-ts.mjs', import.meta.url).href;

/** The job as `pnpm example:out-of-stock` runs it, from its sources, against `databaseUrl`. */
const job = (databaseUrl: string, ...args: string[]) =>
  run(process.execPath, ['--import', RESOLVE_TS, MAIN, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } });

t.test('the nightly job reports the products out of stock of a garage in Postgres', async (t) => {
  const database = await createTestDatabase('out_of_stock');
  t.teardown(database.drop);
  const { db } = database.handle;
  const garage = await newGarage(makeRepositories(db));
  const other = await newGarage(makeRepositories(db));
  await makeUnitOfWork(db).run(async (tx) => {
    await tx.products.upsertMany(garage.id, [productRow(1), productRow(2, { name: 'Brake pads "pro"' }), productRow(3, { active: false })], 'EUR');
    await tx.stock.setQuantities(garage.id, [{ sku: 'SKU-001', quantity: 3 }]);
    await tx.products.upsertMany(other.id, [productRow(9)], 'EUR');
  });

  const { stdout } = await job(database.url, garage.slug, '--json');
  t.same(JSON.parse(stdout), { garage: garage.slug, products: 2, outOfStock: [{ sku: 'SKU-002', name: 'Brake pads "pro"' }] });

  const text = await job(database.url, garage.slug);
  t.equal(text.stdout, 'Garage under test: 1 of 2 active products out of stock\nSKU-002\tBrake pads "pro"\n');

  const unknown = await job(database.url, 'no-such-garage').then(() => null, (err: { code: number; stderr: string }) => err);
  t.equal(unknown?.code, 1);
  t.equal(unknown?.stderr, 'no garage with slug no-such-garage\n');
});
