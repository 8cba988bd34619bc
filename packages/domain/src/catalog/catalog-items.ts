import { field, type ItemOf, type ItemShape } from '../kernel/item-shape.js';
import type { KeysetPosition } from '../kernel/pagination.js';

/**
 * A product as the catalog lists it (docs/reference/contract.md §4.2): the one definition of its fields, their order
 * and their kinds, from which the API's schema and the Postgres adapter's mapping and rendering follow
 * (docs/contributors/adding-a-list-field.md).
 */
export const PRODUCT_ITEM = {
  id: field.uuid(),
  sku: field.text(),
  name: field.text(),
  description: field.nullable(field.text()),
  category: field.nullable(field.text()),
  brand: field.nullable(field.text()),
  priceCents: field.integer(),
  currency: field.text(),
  vatRate: field.decimal(),
  unit: field.text(),
  active: field.boolean(),
  updatedAt: field.time(),
} satisfies ItemShape;

export type Product = ItemOf<typeof PRODUCT_ITEM>;

/** A product's stock level as the stock list gives it: one per product. */
export const STOCK_ITEM = {
  productId: field.uuid(),
  sku: field.text(),
  quantity: field.integer(),
  updatedAt: field.time(),
} satisfies ItemShape;

export type StockItem = ItemOf<typeof STOCK_ITEM>;

/** Where a product stands in its list's order, `(updatedAt, id)`: what a page's cursor keeps. */
export const productPosition = (product: Pick<Product, 'updatedAt' | 'id'>): KeysetPosition => ({ sortValue: product.updatedAt, id: product.id });

/** Where a stock item stands in its list's order, `(updatedAt, productId)`. */
export const stockPosition = (item: Pick<StockItem, 'updatedAt' | 'productId'>): KeysetPosition => ({ sortValue: item.updatedAt, id: item.productId });

export interface ProductImportRow {
  sku: string;
  name: string;
  priceCents: number;
  description?: string | null;
  category?: string | null;
  brand?: string | null;
  currency?: string;
  vatRate?: number;
  unit?: string;
  active?: boolean;
}

/** What an imported product gets for a field it leaves out (its currency defaults to the garage's). */
export const PRODUCT_DEFAULTS = { vatRate: 20, unit: 'piece', active: true } as const;

export interface StockImportRow {
  sku: string;
  quantity: number;
}
