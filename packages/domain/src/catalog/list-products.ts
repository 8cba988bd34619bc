import type { Product } from './catalog-items.js';
import type { ProductRepository } from './catalog-repository.port.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { fetchRenderedPage, type PageRequest, type RenderedPage } from '../kernel/page.js';

export interface ListProductsQuery extends PageRequest {
  garageId: string;
  updatedSince: Date | null;
  sku: string | null;
}

/**
 * Without `updatedSince` only active products; with it, deactivated ones too so that a sync learns of removals. A page
 * of rendered items: the API sends them as they are.
 */
export const makeListProducts =
  ({ products, cursors }: { products: Pick<ProductRepository, 'listRendered'>; cursors: CursorCodec }) =>
  (q: ListProductsQuery): Promise<RenderedPage> =>
    fetchRenderedPage<Product>(
      cursors,
      `products|${q.garageId}|${q.updatedSince?.toISOString() ?? ''}|${q.sku ?? ''}`,
      q,
      (p) => ({ sortValue: new Date(p.updatedAt), id: p.id }),
      (after, limit) =>
        products.listRendered({
          garageId: q.garageId,
          limit,
          after,
          updatedSince: q.updatedSince,
          sku: q.sku,
          includeInactive: q.updatedSince !== null,
        }),
    );
