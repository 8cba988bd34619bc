import type { VehicleImportRow, VehicleListQuery, VehicleReader, VehicleRepository } from '@garage/domain';
import { InvalidReferenceError, isUuid } from '@garage/domain';
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Database, Executor, VehiclesTable } from '../schema.js';
import { itemReader, itemSelection } from '../list-items/read-items.js';
import { VEHICLES } from '../list-items/list-item-tables.js';
import { chunks, lastByKey } from './batches.js';
import { nowMs } from './clocks.js';
import { upsertChanges } from './upsert.js';
import type { BulkWrites } from '../statistics.js';

const IMPORTED = [
  'make', 'model', 'version', 'year', 'mileage_km', 'fuel', 'gearbox', 'price_cents', 'currency', 'color',
  'description', 'photos', 'status',
] as const satisfies readonly (keyof VehiclesTable)[];

const toVehicle = itemReader(VEHICLES.shape);
const SELECTION = itemSelection(VEHICLES);

const toRow = (garageId: string, row: VehicleImportRow, defaultCurrency: string): Insertable<VehiclesTable> => ({
  garage_id: garageId,
  reference: row.reference,
  make: row.make,
  model: row.model,
  version: row.version ?? null,
  year: row.year,
  mileage_km: row.mileageKm,
  fuel: row.fuel,
  gearbox: row.gearbox,
  price_cents: row.priceCents,
  currency: defaultCurrency,
  color: row.color ?? null,
  description: row.description ?? null,
  photos: JSON.stringify(row.photos ?? []),
  status: row.status ?? 'available',
});

/** One page of the fleet: its filters, its order and its limit, whatever it selects. */
export const listedVehicles = (db: Executor, q: VehicleListQuery) => {
  let query = db
    .selectFrom('vehicles')
    .where('garage_id', '=', q.garageId)
    // Literal, like the predicate of the partial index vehicles_fleet_idx that serves this list.
    .where('status', '<>', sql.lit('sold'));
  const make = q.make;
  if (make !== null) query = query.where((eb) => eb(eb.fn('lower', ['make']), '=', eb.fn('lower', [eb.val(make)])));
  if (q.fuel !== null) query = query.where('fuel', '=', q.fuel);
  if (q.updatedSince) query = query.where('updated_at', '>=', q.updatedSince);
  if (q.after) {
    const { sortValue, id } = q.after;
    query = query.where((eb) => eb(eb.refTuple('published_at', 'id'), '<', eb.tuple(sortValue, id)));
  }
  return query.orderBy('published_at', 'desc').orderBy('id', 'desc').limit(q.limit);
};

export const makeVehicleReader = (db: Executor): VehicleReader => ({
  async list(q) {
    if (!isUuid(q.garageId)) return [];
    const rows = await listedVehicles(db, q).select(SELECTION).execute();
    return rows.map(toVehicle);
  },

  async findPublicById(id, garageId) {
    if (!isUuid(id) || (garageId !== null && !isUuid(garageId))) return null;
    let query = db.selectFrom('vehicles').select(SELECTION).select('garage_id').where('id', '=', id).where('status', '<>', 'sold');
    if (garageId !== null) query = query.where('garage_id', '=', garageId);
    const row = await query.executeTakeFirst();
    return row ? { ...toVehicle(row), garageId: row.garage_id } : null;
  },
});

/**
 * Reads and writes, bound to a transaction only: the writes span statements and must commit together. An import's
 * rows are recorded in `bulkWrites`, whose tables' statistics the unit of work refreshes after the commit.
 */
export const makeVehicleRepository = (trx: Transaction<Database>, bulkWrites: BulkWrites): VehicleRepository => ({
  ...makeVehicleReader(trx),

  async upsertMany(garageId, rows, defaultCurrency) {
    if (!isUuid(garageId)) throw new InvalidReferenceError('Unknown garage');
    const { set, changed } = upsertChanges('vehicles', IMPORTED);
    const ids: Record<string, string> = {};
    const unique = lastByKey(rows, (r) => r.reference);
    for (const chunk of chunks(unique)) {
      await trx
        .insertInto('vehicles')
        .values(chunk.map((r) => toRow(garageId, r, defaultCurrency)))
        // published_at is left alone: it is the fleet's sort key and must not move when a vehicle is edited.
        .onConflict((oc) =>
          oc
            .columns(['garage_id', 'reference'])
            .doUpdateSet({ ...set, updated_at: nowMs })
            .where(changed),
        )
        .execute();
      const saved = await trx
        .selectFrom('vehicles')
        .select(['id', 'reference'])
        .where('garage_id', '=', garageId)
        .where('reference', 'in', chunk.map((r) => r.reference))
        .execute();
      for (const { id, reference } of saved) ids[reference] = id;
    }
    bulkWrites.record(['vehicles'], unique.length);
    return ids;
  },
});
