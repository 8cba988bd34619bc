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

  const pool = database.handle.pool;
  if (!pool) throw new Error('the test database is Postgres');
  /** Resolves once a backend of this database waits for the garage's catalog lock (an advisory lock), or `until` holds. */
  const waitingForCatalogLock = async (until: () => boolean) => {
    while (!until()) {
      const { rows } = await pool.query(
        `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`,
      );
      if (rows.length > 0) return;
      await sleep(10);
    }
  };

  let commit = () => {};
  const held = new Promise<void>((resolve) => (commit = resolve));
  let written = () => {};
  const slowWrote = new Promise<void>((resolve) => (written = resolve));
  const slow = makeUnitOfWork(database.handle.db).run(async (tx) => {
    await tx.products.upsertMany(garage.id, [productRow(1)], 'EUR');
    written();
    await held;
  });
  // The slow writer has its timestamp; the fast one then either waits behind it or (were writers not serialised)
  // commits first: the reader reads once one of the two has happened.
  await slowWrote;
  let fastDone = false;
  const fast = repos.products.upsertMany(garage.id, [productRow(2)], 'EUR').finally(() => (fastDone = true));
  await Promise.race([fast, waitingForCatalogLock(() => fastDone)]);
  const firstPage = await list(null);
  commit();
  await Promise.all([slow, fast]);
  const rest = await list(firstPage.at(-1) ?? null);
  t.same([...firstPage, ...rest].map((p) => p.sku).sort(), ['SKU-001', 'SKU-002']);
});
