import type { ProductListQuery } from './catalog-repository.port.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { fetchPage, type Listing, type Page, type PageRequest } from '../kernel/page.js';
import type { KeysetPosition } from '../kernel/pagination.js';

export interface ListProductsQuery extends PageRequest {
  garageId: string;
  updatedSince: Date | null;
  sku: string | null;
}

/**
 * Without `updatedSince` only active products; with it, deactivated ones too so that a sync learns of removals. The
 * page holds the items as `products` hands them out: `Product`s from a `ProductReader` (with `productPosition`), or an
 * adapter's own representation of the same rows, with the position each one stands at.
 */
export const makeListProducts =
  <T>({
    products,
    cursors,
    positionOf,
  }: {
    products: Listing<ProductListQuery, T>;
    cursors: CursorCodec;
    positionOf: (item: T) => KeysetPosition;
  }) =>
  (q: ListProductsQuery): Promise<Page<T>> =>
    fetchPage(cursors, `products|${q.garageId}|${q.updatedSince?.toISOString() ?? ''}|${q.sku ?? ''}`, q, positionOf, (after, limit) =>
      products.list({
        garageId: q.garageId,
        limit,
        after,
        updatedSince: q.updatedSince,
        sku: q.sku,
        includeInactive: q.updatedSince !== null,
      }),
    );
