import type { Product, ProductImportRow, StockImportRow, StockItem } from './catalog-items.js';
import type { KeysetQuery } from '../kernel/pagination.js';

export interface ProductListQuery extends KeysetQuery {
  sku: string | null;
  includeInactive: boolean;
}

/** Reads of the catalog, callable anywhere. */
export interface ProductReader {
  /**
   * Ordered by `(updatedAt, id)` ascending, strictly after `after`. For programs that work with the products (a worker
   * built on this package); the API's pages read `listRendered`.
   */
  list(query: ProductListQuery): Promise<Product[]>;
  /**
   * The rows `list` returns, each as its list item: the product as JSON, as the API sends it, rendered when the row was
   * written (docs/operators/performance.md, "List pages").
   */
  listRendered(query: ProductListQuery): Promise<string[]>;
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
  /**
   * One item per product, ordered by `(updatedAt, productId)` ascending. For programs that work with the items; the
   * API's pages read `listRendered`.
   */
  list(query: StockListQuery): Promise<StockItem[]>;
  /** The rows `list` returns, each as its list item: the stock item as JSON, as the API sends it. */
  listRendered(query: StockListQuery): Promise<string[]>;
}

/** Reads and writes; only a unit of work hands it out. */
export interface StockRepository extends StockReader {
  /** Sets quantities by sku; throws `INVALID_REFERENCE` naming unknown skus. Returns sku → product id. */
  setQuantities(garageId: string, rows: StockImportRow[]): Promise<Record<string, string>>;
}
