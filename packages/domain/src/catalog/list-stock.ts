import type { StockItem } from './catalog-items.js';
import type { StockRepository } from './catalog-repository.port.js';
import type { CursorCodec } from '../kernel/cursor.js';
import { fetchRenderedPage, type PageRequest, type RenderedPage } from '../kernel/page.js';

export interface ListStockQuery extends PageRequest {
  garageId: string;
  updatedSince: Date | null;
  sku: string | null;
}

export const makeListStock =
  ({ stock, cursors }: { stock: Pick<StockRepository, 'listRendered'>; cursors: CursorCodec }) =>
  (q: ListStockQuery): Promise<RenderedPage> =>
    fetchRenderedPage<StockItem>(
      cursors,
      `stock|${q.garageId}|${q.updatedSince?.toISOString() ?? ''}|${q.sku ?? ''}`,
      q,
      (s) => ({ sortValue: new Date(s.updatedAt), id: s.productId }),
      (after, limit) => stock.listRendered({ garageId: q.garageId, limit, after, updatedSince: q.updatedSince, sku: q.sku }),
    );
