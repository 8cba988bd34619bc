import type { Product, ProductImportRow, StockImportRow, StockItem } from '../entities/catalog.js';
import type { KeysetQuery } from './pagination.js';

export interface ProductListQuery extends KeysetQuery {
  sku: string | null;
  includeInactive: boolean;
}

export interface ProductRepository {
  /** Ordered by `(updatedAt, id)` ascending, strictly after `after`. */
  list(query: ProductListQuery): Promise<Product[]>;
  /** Upserts by sku; returns sku → id. */
  upsertMany(garageId: string, rows: ProductImportRow[], defaultCurrency: string): Promise<Record<string, string>>;
  /** The subset of `ids` that are products of the garage. */
  findExistingIds(garageId: string, ids: string[]): Promise<string[]>;
}

export interface StockListQuery extends KeysetQuery {
  sku: string | null;
}

export interface StockRepository {
  /** One item per product, ordered by `(updatedAt, productId)` ascending. */
  list(query: StockListQuery): Promise<StockItem[]>;
  /** Sets quantities by sku; throws `INVALID_REFERENCE` naming unknown skus. Returns sku → product id. */
  setQuantities(garageId: string, rows: StockImportRow[]): Promise<Record<string, string>>;
}
