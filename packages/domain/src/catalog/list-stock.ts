import type { StockItem } from './catalog-items.js';
import type { StockRepository } from './catalog-repository.port.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { fetchPage, type Page, type PageRequest } from '../kernel/page.js';

export interface ListStockQuery extends PageRequest {
  garageId: string;
  updatedSince: Date | null;
  sku: string | null;
}

export const makeListStock =
  ({ stock, cursors }: { stock: Pick<StockRepository, 'list'>; cursors: CursorCodec }) =>
  (q: ListStockQuery): Promise<Page<StockItem>> =>
    fetchPage(
      cursors,
      `stock|${q.garageId}|${q.updatedSince?.toISOString() ?? ''}|${q.sku ?? ''}`,
      q,
      (s) => ({ sortValue: s.updatedAt, id: s.productId }),
      (after, limit) => stock.list({ garageId: q.garageId, limit, after, updatedSince: q.updatedSince, sku: q.sku }),
    );
