import {
  makeCursorCodec,
  makeListProducts,
  makeListStock,
  productPosition,
  stockPosition,
  type Page,
  type ProductReader,
  type StockReader,
} from '@garage/domain';
import { randomBytes } from 'node:crypto';

export interface OutOfStockProduct {
  sku: string;
  name: string;
}

export interface OutOfStockReport {
  /** Active products looked at. */
  products: number;
  /** Those whose stock is 0, by sku. */
  outOfStock: OutOfStockProduct[];
}

const PAGE = 500;

/** Every item of a list, page after page, as a connector would walk it. */
const everything = async <T>(list: (cursor: string | null) => Promise<Page<T>>): Promise<T[]> => {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await list(cursor);
    items.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return items;
};

/**
 * The report, through the domain's list use cases over any `ProductReader` and `StockReader`: the Postgres adapter's in
 * the job, the in-memory fakes of `@garage/domain/testing` in a test. The use cases apply the lists' rules (only active
 * products without `updatedSince`, one stock item per product); the cursors only need to live as long as the walk.
 */
export const outOfStockReport = async (
  { products, stock }: { products: Pick<ProductReader, 'list'>; stock: Pick<StockReader, 'list'> },
  garageId: string,
): Promise<OutOfStockReport> => {
  const cursors = makeCursorCodec(randomBytes(32));
  const listProducts = makeListProducts({ products, cursors, positionOf: productPosition });
  const listStock = makeListStock({ stock, cursors, positionOf: stockPosition });
  const query = { garageId, updatedSince: null, sku: null, limit: PAGE };
  const [catalog, levels] = await Promise.all([
    everything((cursor) => listProducts({ ...query, cursor })),
    everything((cursor) => listStock({ ...query, cursor })),
  ]);
  const quantities = new Map(levels.map((item) => [item.productId, item.quantity]));
  const outOfStock = catalog
    .filter((product) => (quantities.get(product.id) ?? 0) === 0)
    .map(({ sku, name }) => ({ sku, name }))
    .sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
  return { products: catalog.length, outOfStock };
};
