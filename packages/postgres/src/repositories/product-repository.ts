import type { ProductImportRow, ProductListQuery, ProductReader, ProductRepository } from '@garage/domain';
import { InvalidReferenceError, isUuid, PRODUCT_DEFAULTS } from '@garage/domain';
import { sql, type Transaction } from 'kysely';
import type { Database, NewProductRow, Executor } from '../schema.js';
import { itemReader, itemSelection } from '../list-items/read-items.js';
import { PRODUCTS } from '../list-items/list-item-tables.js';
import { catalogWriteTime } from './clocks.js';
import { chunks, lastByKey } from './batches.js';
import { upsertChanges } from './upsert.js';
import type { BulkWrites } from '../statistics.js';

const IMPORTED = [
  'name', 'description', 'category', 'brand', 'price_cents', 'currency', 'vat_rate', 'unit', 'active',
] as const satisfies readonly (keyof NewProductRow)[];

const toProduct = itemReader(PRODUCTS.shape);
const SELECTION = itemSelection(PRODUCTS);

const toRow = (garageId: string, row: ProductImportRow, defaultCurrency: string, at: Date): NewProductRow => ({
  garage_id: garageId,
  sku: row.sku,
  name: row.name,
  description: row.description ?? null,
  category: row.category ?? null,
  brand: row.brand ?? null,
  price_cents: row.priceCents,
  currency: row.currency ?? defaultCurrency,
  vat_rate: row.vatRate ?? PRODUCT_DEFAULTS.vatRate,
  unit: row.unit ?? PRODUCT_DEFAULTS.unit,
  active: row.active ?? PRODUCT_DEFAULTS.active,
  updated_at: at,
});

/** Upserts one chunk and gives every product of it a stock row (quantity 0 for new ones); returns sku → id. */
const upsertChunk = async (trx: Transaction<Database>, garageId: string, rows: NewProductRow[], at: Date) => {
  const { set, changed } = upsertChanges('products', IMPORTED);
  await trx
    .insertInto('products')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['garage_id', 'sku'])
        .doUpdateSet({ ...set, updated_at: at })
        .where(changed),
    )
    .execute();
  // Unchanged rows are not returned by the upsert above, hence a separate lookup.
  const ids = await trx
    .selectFrom('products')
    .select(['id', 'sku'])
    .where('garage_id', '=', garageId)
    .where('sku', 'in', rows.map((r) => r.sku))
    .execute();
  await trx
    .insertInto('stock')
    .values(ids.map(({ id }) => ({ product_id: id, garage_id: garageId, quantity: 0, updated_at: at })))
    .onConflict((oc) => oc.column('product_id').doNothing())
    .execute();
  return ids;
};

/** One page of a product list: its filters, its order and its limit, whatever it selects. */
export const listedProducts = (db: Executor, q: ProductListQuery) => {
  let query = db.selectFrom('products').where('garage_id', '=', q.garageId);
  // Literal `true` (not a parameter) so that the planner can use the partial index products_active_sync_idx.
  if (!q.includeInactive) query = query.where('active', '=', sql.lit(true));
  if (q.updatedSince) query = query.where('updated_at', '>=', q.updatedSince);
  if (q.sku !== null) query = query.where('sku', '=', q.sku);
  if (q.after) {
    const { sortValue, id } = q.after;
    query = query.where((eb) => eb(eb.refTuple('updated_at', 'id'), '>', eb.tuple(sortValue, id)));
  }
  return query.orderBy('updated_at').orderBy('id').limit(q.limit);
};

export const makeProductReader = (db: Executor): ProductReader => ({
  async list(q) {
    if (!isUuid(q.garageId)) return [];
    const rows = await listedProducts(db, q).select(SELECTION).execute();
    return rows.map(toProduct);
  },

  async findExistingIds(garageId, ids) {
    const candidates = ids.filter(isUuid);
    if (!isUuid(garageId) || candidates.length === 0) return [];
    const rows = await db
      .selectFrom('products')
      .select('id')
      .where('garage_id', '=', garageId)
      .where('id', 'in', candidates)
      .execute();
    return rows.map((r) => r.id);
  },
});

/**
 * Reads and writes, bound to a transaction only: the writes span statements and must commit together. An import's
 * rows are recorded in `bulkWrites`, whose tables' statistics the unit of work refreshes after the commit.
 */
export const makeProductRepository = (trx: Transaction<Database>, bulkWrites: BulkWrites): ProductRepository => ({
  ...makeProductReader(trx),

  async upsertMany(garageId, rows, defaultCurrency) {
    if (!isUuid(garageId)) throw new InvalidReferenceError('Unknown garage');
    const ids: Record<string, string> = {};
    if (rows.length === 0) return ids;
    const at = await catalogWriteTime(trx, garageId);
    const unique = lastByKey(rows, (r) => r.sku);
    for (const chunk of chunks(unique)) {
      const saved = await upsertChunk(trx, garageId, chunk.map((r) => toRow(garageId, r, defaultCurrency, at)), at);
      for (const { id, sku } of saved) ids[sku] = id;
    }
    bulkWrites.record(['products', 'stock'], unique.length);
    return ids;
  },
});
