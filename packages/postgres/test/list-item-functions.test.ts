import { readdirSync, readFileSync } from 'node:fs';
import { newGarage, productRow } from '@garage/domain/testing';
import { sql } from 'kysely';
import t from 'tap';
import { makeRepositories, makeUnitOfWork } from '../src/index.js';
import { PRODUCTS } from '../src/list-items/list-item-tables.js';
import { GENERATED_MARK, listItemsMigrationSource } from '../src/list-items/migration-source.js';
import { renderListItemsAgain } from '../src/list-items/render-again.js';
import { listItemFunction, listItemFunctions } from '../src/list-items/render-sql.js';
import { latestListItemFunctions } from '../src/migrations/index.js';
import { createTestDatabase } from '../src/testing/index.js';

const MIGRATIONS = new URL('../src/migrations/', import.meta.url);

t.test('the latest generated migration installs the functions the item shapes generate now', async (t) => {
  t.same(latestListItemFunctions(), listItemFunctions(), 'a list item shape changed: run pnpm list-items:migration');
});

t.test('every generated migration is what the generator writes: none was edited by hand', async (t) => {
  const generated = readdirSync(MIGRATIONS).filter((file) => readFileSync(new URL(file, MIGRATIONS), 'utf8').startsWith(GENERATED_MARK));
  t.ok(generated.length > 0);
  for (const file of generated) {
    const module = (await import(new URL(file, MIGRATIONS).href)) as { FUNCTIONS: Record<string, string>; RERENDER: string[] };
    const name = file.replace(/\.ts$/, '');
    t.equal(readFileSync(new URL(file, MIGRATIONS), 'utf8'), listItemsMigrationSource(name, module.FUNCTIONS, module.RERENDER), file);
  }
});

t.test('rows are rendered again in batches that commit their progress: a run that stops resumes where it stopped', async (t) => {
  const database = await createTestDatabase('render_again');
  t.teardown(database.drop);
  const { db } = database.handle;
  const garage = await newGarage(makeRepositories(db));
  await makeUnitOfWork(db).run((tx) => tx.products.upsertMany(garage.id, [1, 2, 3, 4, 5].map((i) => productRow(i)), 'EUR'));
  const rows = () =>
    db.selectFrom('products').select(['id', 'list_item', 'updated_at']).where('garage_id', '=', garage.id).orderBy('id').execute();
  const rendered = await rows();

  // Rows rendered by a previous release's function, then the generated one back and its rows queued.
  await sql.raw(`create or replace function products_list_item() returns trigger language plpgsql as $$ begin new.list_item := 'stale'; return new; end $$`).execute(db);
  await db.updateTable('products').set({ list_item: sql`null` }).where('garage_id', '=', garage.id).execute();
  await sql.raw(listItemFunction(PRODUCTS)).execute(db);
  await sql`insert into list_item_renders (generation, table_name) values ('9999-test', 'products')`.execute(db);
  t.same((await rows()).map((r) => r.list_item), rendered.map(() => 'stale'));

  // A writer holds the third row longer than a batch waits for a lock: the run stops after its first batch of two.
  const [, , third] = rendered;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const locked = new Promise<void>((resolve) => {
    void db.transaction().execute(async (trx) => {
      await trx.selectFrom('products').select('id').where('id', '=', third!.id).forUpdate().execute();
      resolve();
      await held;
    });
  });
  await locked;
  await t.rejects(renderListItemsAgain(db, { batchRows: 2 }), { code: '55P03' }, 'lock_timeout');
  release();
  const stopped = await rows();
  t.same(stopped.map((r) => r.list_item), [rendered[0]!.list_item, rendered[1]!.list_item, 'stale', 'stale', 'stale'], 'the first batch committed');
  const progress = () => sql<{ after_key: string; done: boolean }>`
    select after_key::text, done_at is not null as done from list_item_renders where generation = '9999-test'`.execute(db);
  t.same((await progress()).rows, [{ after_key: rendered[1]!.id, done: false }], 'with how far it got');

  t.equal(await renderListItemsAgain(db, { batchRows: 2 }), 3, 'the next run renders the rest only');
  t.same(await rows(), rendered, 'every row rendered again, its updated_at unchanged');
  t.same((await progress()).rows, [{ after_key: rendered[4]!.id, done: true }]);
  t.equal(await renderListItemsAgain(db), 0, 'nothing is left to do');
});
