import type { StockListQuery, StockReader, StockRepository } from '@garage/domain';
import type { Transaction } from 'kysely';
import { InvalidReferenceError, isUuid } from '@garage/domain';
import { catalogWriteTime } from './clocks.js';
import { chunks, lastByKey } from './batches.js';
import type { Database, Executor } from '../schema.js';
import type { BulkWrites } from '../statistics.js';
import { itemReader, itemSelection } from '../list-items/read-items.js';
import { STOCK } from '../list-items/list-item-tables.js';

const toStockItem = itemReader(STOCK.shape);
const SELECTION = itemSelection(STOCK);

/** Product ids for `skus`, validated before any write so that an import with an unknown sku writes nothing. */
const resolveSkus = async (db: Executor, garageId: string, skus: string[]): Promise<Map<string, string>> => {
  const found = new Map<string, string>();
  for (const chunk of chunks(skus)) {
    const rows = await db
      .selectFrom('products')
      .select(['id', 'sku'])
      .where('garage_id', '=', garageId)
      .where('sku', 'in', chunk)
      .execute();
    for (const { id, sku } of rows) found.set(sku, id);
  }
  const details = skus.flatMap((sku, i) =>
    found.has(sku) ? [] : [{ path: `/${i}/sku`, message: `no product with sku ${sku} in this garage` }],
  );
  if (details.length > 0) throw new InvalidReferenceError('Unknown sku', details);
  return found;
};

/**
 * One page of a stock list: its filters, its order and its limit, whatever it selects. A sku filter is one probe of
 * products (garage_id, sku); no join otherwise, since the rendered item carries its sku.
 */
export const listedStock = (db: Executor, q: StockListQuery) => {
  let query = db.selectFrom('stock').where('stock.garage_id', '=', q.garageId);
  if (q.updatedSince) query = query.where('stock.updated_at', '>=', q.updatedSince);
  const sku = q.sku;
  if (sku !== null) {
    query = query.where('stock.product_id', '=', (eb) =>
      eb.selectFrom('products').select('products.id').where('products.garage_id', '=', q.garageId).where('products.sku', '=', sku),
    );
  }
  if (q.after) {
    const { sortValue, id } = q.after;
    query = query.where((eb) => eb(eb.refTuple('stock.updated_at', 'stock.product_id'), '>', eb.tuple(sortValue, id)));
  }
  return query.orderBy('stock.updated_at').orderBy('stock.product_id').limit(q.limit);
};

export const makeStockReader = (db: Executor): StockReader => ({
  async list(q) {
    if (!isUuid(q.garageId)) return [];
    const rows = await listedStock(db, q)
      // Joined on the whole foreign key: the planner then knows the product's garage too.
      .innerJoin('products', (join) =>
        join.onRef('products.id', '=', 'stock.product_id').onRef('products.garage_id', '=', 'stock.garage_id'),
      )
      .select(SELECTION)
      .execute();
    return rows.map(toStockItem);
  },
});

/**
 * Reads and writes, bound to a transaction only: the writes span statements and must commit together. A batch's rows
 * are recorded in `bulkWrites`, whose tables' statistics the unit of work refreshes after the commit.
 */
export const makeStockRepository = (trx: Transaction<Database>, bulkWrites: BulkWrites): StockRepository => ({
  ...makeStockReader(trx),

  async setQuantities(garageId, rows) {
    if (!isUuid(garageId)) throw new InvalidReferenceError('Unknown garage');
    const productIds = await resolveSkus(trx, garageId, rows.map((r) => r.sku));
    if (rows.length === 0) return {};
    const at = await catalogWriteTime(trx, garageId);
    const values = lastByKey(rows, (r) => r.sku).map((r) => ({
      product_id: productIds.get(r.sku) as string,
      garage_id: garageId,
      quantity: r.quantity,
      updated_at: at,
    }));
    for (const chunk of chunks(values)) {
      await trx
        .insertInto('stock')
        .values(chunk)
        .onConflict((oc) =>
          oc
            .column('product_id')
            .doUpdateSet((eb) => ({
              quantity: eb.ref('excluded.quantity'),
              updated_at: eb.ref('excluded.updated_at'),
            }))
            // Unchanged quantities keep their updated_at so that connectors do not resync them.
            .where((eb) => eb('stock.quantity', '<>', eb.ref('excluded.quantity'))),
        )
        .execute();
    }
    bulkWrites.record(['stock'], values.length);
    return Object.fromEntries(productIds);
  },
});
