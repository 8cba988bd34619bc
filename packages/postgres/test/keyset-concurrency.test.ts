import t from 'tap';
import type { Product } from '@garage/domain';
import { makeUnitOfWork } from '../src/repositories/index.js';
import { newGarage, productRow, sleep } from '@garage/domain/testing';
import { createTestDatabase, eachCallCommitted } from '@garage/postgres/testing';

/**
 * Real Postgres only: on PGlite every transaction already runs alone. The race this guards against is a writer that
 * took its timestamp before a second writer but commits after it: a reader that saw the second write would have
 * moved its cursor past the first one and missed it forever.
 */
t.test('a catalog write that commits late still sorts after everything a reader could have seen', async (t) => {
  const database = await createTestDatabase('pgkeyset');
  t.teardown(() => database.drop());
  const repos = eachCallCommitted(makeUnitOfWork(database.handle.db));
  const garage = await newGarage(repos);
  const list = (after: Product | null) =>
    repos.products.list({
      garageId: garage.id,
      limit: 100,
      after: after && { sortValue: after.updatedAt, id: after.id },
      updatedSince: null,
      sku: null,
      includeInactive: false,
    });

  let commit = () => {};
  const held = new Promise<void>((resolve) => (commit = resolve));
  const slow = makeUnitOfWork(database.handle.db).run(async (tx) => {
    await tx.products.upsertMany(garage.id, [productRow(1)], 'EUR');
    await held;
  });
  await sleep(50);
  const fast = repos.products.upsertMany(garage.id, [productRow(2)], 'EUR');
  await sleep(50);
  const firstPage = await list(null);
  commit();
  await Promise.all([slow, fast]);
  const rest = await list(firstPage.at(-1) ?? null);
  t.same([...firstPage, ...rest].map((p) => p.sku).sort(), ['SKU-001', 'SKU-002']);
});
