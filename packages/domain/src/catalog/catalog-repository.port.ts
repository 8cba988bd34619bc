import type { Product, ProductImportRow, StockImportRow, StockItem } from './catalog-items.js';
import type { KeysetQuery } from '../kernel/pagination.js';

export interface ProductListQuery extends KeysetQuery {
  sku: string | null;
  includeInactive: boolean;
}

/** Reads of the catalog, callable anywhere. */
export interface ProductReader {
  /** Ordered by `(updatedAt, id)` ascending, strictly after `after`. */
  list(query: ProductListQuery): Promise<Product[]>;
  /** The subset of `ids` that are products of the garage. */
  findExistingIds(garageId: string, ids: string[]): Promise<string[]>;
}

/** Reads and writes; only a unit of work hands it out, because an import spans statements under a garage lock. */
export interface ProductRepository extends ProductReader {
  /** Upserts by sku; returns sku → id. */
  upsertMany(garageId: string, rows: ProductImportRow[], defaultCurrency: string): Promise<Record<string, string>>;
}

export interface StockListQuery extends KeysetQuery {
  sku: string | null;
}

export interface StockReader {
  /** One item per product, ordered by `(updatedAt, productId)` ascending, strictly after `after`. */
  list(query: StockListQuery): Promise<StockItem[]>;
}

/** Reads and writes; only a unit of work hands it out. */
export interface StockRepository extends StockReader {
  /** Sets quantities by sku; throws `INVALID_REFERENCE` naming unknown skus. Returns sku → product id. */
  setQuantities(garageId: string, rows: StockImportRow[]): Promise<Record<string, string>>;
}
