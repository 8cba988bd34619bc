import { sql, type Kysely } from 'kysely';
import { FUNCTIONS } from './0012-list-items.js';

/**
 * Each row of a list (products, stock, vehicles) carries `list_item`: its item of a list page, as the exact JSON the
 * API sends (docs/operators/performance.md, "List pages"), rendered by a BEFORE INSERT OR UPDATE trigger whenever the
 * row is written. A page read that misses the cache then reads one text column per row and joins the items, instead
 * of parsing timestamps and numbers into objects only to serialise them back. Every write keeps it right, the
 * set-based ones (imports, stock batches, bulk loads) included, with no change to the code that writes.
 *
 * The trigger functions are the ones generated from the item shapes (docs/contributors/adding-a-list-field.md) and
 * committed with the first generated migration: an item's keys are written in one place, never by hand here. A stock
 * item shows its product's sku; should a sku change, the product's trigger renders its stock row again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['stock', 'products', 'vehicles'] as const) {
    await sql`alter table ${sql.table(table)} add column list_item text`.execute(db);
    await sql.raw(FUNCTIONS[table]!).execute(db);
    await sql
      .raw(`create trigger ${table}_list_item before insert or update on ${table} for each row execute function ${table}_list_item()`)
      .execute(db);
    // Fires the trigger on every existing row.
    await sql`update ${sql.table(table)} set list_item = null`.execute(db);
    await sql`alter table ${sql.table(table)} alter column list_item set not null`.execute(db);
  }
  await sql
    .raw(
      `create function products_sku_to_stock() returns trigger language plpgsql as $$
       begin
         update stock set list_item = null where product_id = new.id;
         return null;
       end
       $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger products_sku_to_stock after update of sku on products for each row
       when (old.sku is distinct from new.sku) execute function products_sku_to_stock()`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger products_sku_to_stock on products`.execute(db);
  await sql`drop function products_sku_to_stock()`.execute(db);
  for (const table of ['stock', 'products', 'vehicles']) {
    await sql.raw(`drop trigger ${table}_list_item on ${table}`).execute(db);
    await sql.raw(`drop function ${table}_list_item()`).execute(db);
    await sql`alter table ${sql.table(table)} drop column list_item`.execute(db);
  }
}
