import { PRODUCT_ITEM, STOCK_ITEM, VEHICLE_ITEM, type ItemShape } from '@garage/domain';

/** Where a field's value is read from when it is not the row's column named after it. */
export interface FieldSource {
  /** The selection in a list's query (which joins what it needs). */
  read: string;
  /** The expression in the row's trigger, over `new`. */
  trigger: string;
}

/** A list's table: its rows are the items of `shape`, each field in the column named after it, snake_case. */
export interface ListItemTable<S extends ItemShape = ItemShape> {
  table: 'products' | 'stock' | 'vehicles';
  /** The column that orders a re-render's batches: the primary key. */
  key: string;
  shape: S;
  sources?: { [K in keyof S]?: FieldSource };
}

export const PRODUCTS = { table: 'products', key: 'id', shape: PRODUCT_ITEM } satisfies ListItemTable<typeof PRODUCT_ITEM>;

/**
 * A stock item shows its product's sku. Skus do not change (imports upsert by sku); should one change, the product's
 * trigger renders its stock row again (migration 0011).
 */
export const STOCK = {
  table: 'stock',
  key: 'product_id',
  shape: STOCK_ITEM,
  sources: { sku: { read: 'products.sku', trigger: '(select p.sku from products p where p.id = new.product_id)' } },
} satisfies ListItemTable<typeof STOCK_ITEM>;

export const VEHICLES = { table: 'vehicles', key: 'id', shape: VEHICLE_ITEM } satisfies ListItemTable<typeof VEHICLE_ITEM>;

/** Every list whose rows carry their rendered item, in the order their functions are generated. */
export const LIST_ITEM_TABLES: readonly ListItemTable[] = [STOCK, PRODUCTS, VEHICLES];

/** `priceCents` → `price_cents`. */
export const columnOf = (field: string): string => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
