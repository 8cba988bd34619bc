import { sql, type Kysely } from 'kysely';

/**
 * Each row of a list (products, stock, vehicles) carries `list_item`: its item of a list page, as the exact JSON the
 * API sends (docs/operators/performance.md, "List pages"), rendered by a BEFORE INSERT OR UPDATE trigger whenever the
 * row is written. A page read that misses the cache then reads one text column per row and joins the items, instead
 * of parsing timestamps and numbers into objects only to serialise them back. Every write keeps it right, the
 * set-based ones (imports, stock batches, bulk loads) included, with no change to the code that writes.
 *
 * The rendering is the API's serialiser's, byte for byte: the keys of the item's schema in their order, no spaces,
 * strings escaped as JSON.stringify does (Postgres's `to_json` escapes the same characters the same way), numbers as
 * JavaScript prints them (`trim_scale` drops a numeric's trailing zeros: 20.00 is `20`, 5.50 is `5.5`), and times as
 * `Date.prototype.toISOString` writes the millisecond the driver would have parsed (UTC, truncated to milliseconds).
 * A stock item shows its product's sku; skus do not change (imports upsert by sku), and should one change, the
 * product's trigger renders its stock row again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const iso = (column: string) =>
    `'"' || to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'`;
  const text = (column: string) => `to_json(${column})::text`;
  const nullable = (column: string) => `coalesce(to_json(${column})::text, 'null')`;

  const PRODUCT = `'{"id":"' || new.id::text
    || '","sku":' || ${text('new.sku')}
    || ',"name":' || ${text('new.name')}
    || ',"description":' || ${nullable('new.description')}
    || ',"category":' || ${nullable('new.category')}
    || ',"brand":' || ${nullable('new.brand')}
    || ',"priceCents":' || new.price_cents::text
    || ',"currency":' || ${text('new.currency')}
    || ',"vatRate":' || trim_scale(new.vat_rate)::text
    || ',"unit":' || ${text('new.unit')}
    || ',"active":' || case when new.active then 'true' else 'false' end
    || ',"updatedAt":' || ${iso('new.updated_at')}
    || '}'`;

  const STOCK_ITEM = `'{"productId":"' || new.product_id::text
    || '","sku":' || ${nullable('(select p.sku from products p where p.id = new.product_id)')}
    || ',"quantity":' || new.quantity::text
    || ',"updatedAt":' || ${iso('new.updated_at')}
    || '}'`;

  const PHOTOS = `'[' || coalesce(
      (select string_agg(to_json(photo)::text, ',' order by n) from jsonb_array_elements_text(new.photos) with ordinality as p(photo, n)),
      '') || ']'`;

  const VEHICLE = `'{"id":"' || new.id::text
    || '","reference":' || ${text('new.reference')}
    || ',"make":' || ${text('new.make')}
    || ',"model":' || ${text('new.model')}
    || ',"version":' || ${nullable('new.version')}
    || ',"year":' || new.year::text
    || ',"mileageKm":' || new.mileage_km::text
    || ',"fuel":' || ${text('new.fuel')}
    || ',"gearbox":' || ${text('new.gearbox')}
    || ',"priceCents":' || new.price_cents::text
    || ',"currency":' || ${text('new.currency')}
    || ',"color":' || ${nullable('new.color')}
    || ',"description":' || ${nullable('new.description')}
    || ',"photos":' || ${PHOTOS}
    || ',"status":' || ${text('new.status')}
    || ',"publishedAt":' || ${iso('new.published_at')}
    || ',"updatedAt":' || ${iso('new.updated_at')}
    || '}'`;

  const LISTS = [
    { table: 'stock', item: STOCK_ITEM },
    { table: 'products', item: PRODUCT },
    { table: 'vehicles', item: VEHICLE },
  ] as const;

  for (const { table, item } of LISTS) {
    await sql`alter table ${sql.table(table)} add column list_item text`.execute(db);
    await sql
      .raw(
        `create function ${table}_list_item() returns trigger language plpgsql as $$
         begin
           new.list_item := ${item};
           return new;
         end
         $$`,
      )
      .execute(db);
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
