// Times the copies of a sandbox (docs/operators/performance.md, "Sandbox copies") on a garage of 100,000 products
// with stock and 100 vehicles: the first copy (integration create); a reset when the sandbox holds its most
// appointments (10,000) and the live garage changed 1,000 products and their stock; a reset when nothing changed; a
// reset after every live product and stock row changed.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node scripts/bench/sandbox-copy.js
//
// Needs the packages built (`pnpm -s turbo run build`). The database is created for the run and dropped after it.
import { randomBytes } from 'node:crypto';
import { parseEncryptionKey } from '../../packages/domain/dist/index.js';
import { makeAdminUseCases } from '../../packages/composition/dist/index.js';
import { createTestDatabase } from '../../packages/postgres/dist/testing/databases.js';
import { PRODUCTS_SQL, STOCK_SQL, VEHICLES_SQL } from './seed.js';

const PRODUCTS = 100_000;
const APPOINTMENTS = 10_000;

const timed = async (label, work) => {
  const started = performance.now();
  const result = await work();
  console.log(`${label}: ${Math.round(performance.now() - started)} ms`);
  return result;
};

const database = await createTestDatabase('sandbox-copy');
try {
  const admin = makeAdminUseCases(database.handle.db, [parseEncryptionKey(randomBytes(32).toString('base64'), 'ENCRYPTION_KEY')]);
  const garage = await admin.createGarage({ slug: 'copy-big', name: 'Big catalog' });
  const client = await database.handle.pool.connect();
  try {
    await client.query('set statement_timeout = 0');
    await client.query(PRODUCTS_SQL, [[garage.id], [PRODUCTS]]);
    await client.query(STOCK_SQL, [[garage.id]]);
    await client.query(VEHICLES_SQL, [[garage.id], 100]);
    await client.query('vacuum analyze products, stock, vehicles');
  } finally {
    client.release();
  }
  console.log(`live garage: ${PRODUCTS} products with stock, 100 vehicles`);

  const created = await timed('first copy (integration create, a new sandbox)', () =>
    admin.createIntegration({ garageSlug: 'copy-big', name: 'bench', sync: ['appointments', 'catalog', 'stock'], webhookUrl: null }),
  );
  const sandboxId = created.sandbox.garage.id;
  const client2 = await database.handle.pool.connect();
  try {
    await client2.query('set statement_timeout = 0');
    await client2.query(
      `insert into appointments (garage_id, integration_id, starts_at, ends_at, duration_minutes, customer_name, customer_email)
       select $1, $2, t, t + interval '30 minutes', 30, 'Test customer', 'test@example.com'
         from generate_series(now() + interval '1 day', now() + interval '1 day' + ($3::int - 1) * interval '30 minutes', interval '30 minutes') as t`,
      [sandboxId, created.sandbox.integration.id, APPOINTMENTS],
    );
  } finally {
    client2.release();
  }
  const touch = async (share) => {
    const client = await database.handle.pool.connect();
    try {
      await client.query('set statement_timeout = 0');
      const some = `garage_id = $1 and abs(hashtext(sku)) % 100 < $2`;
      await client.query(`update products set name = name || ' (new)', updated_at = now() where ${some}`, [garage.id, share]);
      await client.query(`update stock set quantity = quantity + 1, updated_at = now() where product_id in (select id from products where ${some})`, [garage.id, share]);
    } finally {
      client.release();
    }
  };
  await touch(1);
  await timed(`reset: ${APPOINTMENTS} appointments to empty, about 1,000 products and their stock changed live`, () => admin.resetSandbox(created.integration.id));
  await timed('reset: nothing changed', () => admin.resetSandbox(created.integration.id));
  await touch(100);
  await timed('reset: every live product and stock row changed', () => admin.resetSandbox(created.integration.id));
  const { rows } = await database.handle.pool.query(
    `select (select count(*) from products where garage_id = $1)::int as products,
            (select count(*) from products where garage_id = $1 and name like '% (new) (new)')::int as changed_twice,
            (select count(*) from appointments where garage_id = $1)::int as appointments`,
    [sandboxId],
  );
  console.log(`sandbox after the resets: ${JSON.stringify(rows[0])}`);
} finally {
  await database.drop();
}
