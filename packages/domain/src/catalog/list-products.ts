import type { Product } from './catalog-items.js';
import type { ProductRepository } from './catalog-repository.port.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { fetchPage, type Page, type PageRequest } from '../kernel/page.js';

export interface ListProductsQuery extends PageRequest {
  garageId: string;
  updatedSince: Date | null;
  sku: string | null;
}

/** Without `updatedSince` only active products; with it, deactivated ones too so that a sync learns of removals. */
export const makeListProducts =
  ({ products, cursors }: { products: Pick<ProductRepository, 'list'>; cursors: CursorCodec }) =>
  (q: ListProductsQuery): Promise<Page<Product>> =>
    fetchPage(
      cursors,
      `products|${q.garageId}|${q.updatedSince?.toISOString() ?? ''}|${q.sku ?? ''}`,
      q,
      (p) => ({ sortValue: p.updatedAt, id: p.id }),
      (after, limit) =>
        products.list({
          garageId: q.garageId,
          limit,
          after,
          updatedSince: q.updatedSince,
          sku: q.sku,
          includeInactive: q.updatedSince !== null,
        }),
    );
