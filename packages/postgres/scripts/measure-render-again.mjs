// How long rendering the list rows again takes, and how long a writer waits meanwhile
// (docs/contributors/adding-a-list-field.md): `node packages/postgres/scripts/measure-render-again.mjs [rows]` after a
// build, against TEST_DATABASE_URL's server (a database of its own, dropped at the end).
import { sql } from 'kysely';
import { renderListItemsAgain } from '../dist/index.js';
import { createTestDatabase } from '../dist/testing/databases.js';

const ROWS = Number(process.argv[2] ?? 200_000);
const INSERT_CHUNK = 20_000;

const database = await createTestDatabase('measure');
const { db } = database.handle;
try {
  const { rows: [garage] } = await sql`
    insert into garages (slug, name, currency, timezone, slot_minutes, capacity, min_notice_minutes, horizon_days, weekly_hours)
    values ('measure', 'Measure', 'EUR', 'Europe/Paris', 30, 2, 120, 60, '{}') returning id`.execute(db);
  for (let from = 1; from <= ROWS; from += INSERT_CHUNK) {
    await sql`
      insert into products (garage_id, sku, name, price_cents, currency, vat_rate, unit, updated_at)
      select ${garage.id}::uuid, 'SKU-' || n, 'Product ' || n, n, 'EUR', 20, 'piece', now()
        from generate_series(${from}::int, ${Math.min(ROWS, from + INSERT_CHUNK - 1)}::int) n`.execute(db);
  }
  await sql`insert into list_item_renders (generation, table_name) values ('measure', 'products')`.execute(db);

  // A writer updating a random product every 5 ms, as imports and stock batches would.
  let stop = false;
  let slowest = 0;
  let writes = 0;
  const writer = (async () => {
    while (!stop) {
      const started = Date.now();
      const sku = `SKU-${1 + Math.floor(Math.random() * ROWS)}`;
      await sql`update products set name = name where garage_id = ${garage.id}::uuid and sku = ${sku}`.execute(db);
      slowest = Math.max(slowest, Date.now() - started);
      writes += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const started = Date.now();
  const rendered = await renderListItemsAgain(db);
  const ms = Date.now() - started;
  stop = true;
  await writer;
  console.log(
    `rendered ${rendered} rows again in ${ms} ms (${(ms / Math.ceil(rendered / 1000)).toFixed(0)} ms per batch of 1,000); ` +
      `a writer meanwhile made ${writes} writes, the slowest in ${slowest} ms`,
  );
} finally {
  await database.drop();
}
