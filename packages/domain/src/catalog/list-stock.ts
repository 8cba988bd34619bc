import type { StockListQuery } from './catalog-repository.port.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { fetchPage, type Listing, type Page, type PageRequest } from '../kernel/page.js';
import type { KeysetPosition } from '../kernel/pagination.js';

export interface ListStockQuery extends PageRequest {
  garageId: string;
  updatedSince: Date | null;
  sku: string | null;
}

/** One item per product; `StockItem`s from a `StockReader` (with `stockPosition`), or an adapter's representation. */
export const makeListStock =
  <T>({ stock, cursors, positionOf }: { stock: Listing<StockListQuery, T>; cursors: CursorCodec; positionOf: (item: T) => KeysetPosition }) =>
  (q: ListStockQuery): Promise<Page<T>> =>
    fetchPage(cursors, `stock|${q.garageId}|${q.updatedSince?.toISOString() ?? ''}|${q.sku ?? ''}`, q, positionOf, (after, limit) =>
      stock.list({ garageId: q.garageId, limit, after, updatedSince: q.updatedSince, sku: q.sku }),
    );
