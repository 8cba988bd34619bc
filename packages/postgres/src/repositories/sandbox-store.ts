import { NotFoundError, isUuid, type SandboxStore } from '@garage/domain';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { catalogWriteTime, nowMs } from './clocks.js';
import { toGarage } from './garage-rows.js';
import { upsertChanges } from './upsert.js';

/** The columns a copy takes from the live row; the garage, the id and the times are the sandbox's own. */
const PRODUCT_COLUMNS = ['name', 'description', 'category', 'brand', 'price_cents', 'currency', 'vat_rate', 'unit', 'active'] as const;
const VEHICLE_COLUMNS = [
  'make', 'model', 'version', 'year', 'mileage_km', 'fuel', 'gearbox', 'price_cents', 'currency', 'color',
  'description', 'photos', 'status',
] as const;

const columnList = (columns: readonly string[]) => sql.join(columns.map((c) => sql.ref(c)));

/**
 * Brings a sandbox's settings, closures, catalog, stock and vehicles to the live garage's, one statement per table
 * (docs/operators/performance.md, "Sandbox copies"). Rows are matched by business key (`sku`, `reference`): a
 * sandbox row keeps its id across resets, a changed row gets the live values and a new `updated_at`, an unchanged one
 * is not written, a live row the sandbox lacks is inserted under a new id, and a sandbox row whose live row is gone
 * is deleted (nothing references it any more: appointments and leads are emptied first).
 */
const copyFromLive = async (trx: Transaction<Database>, sandboxId: string, liveId: string): Promise<void> => {
  await sql`
    update garages s
       set currency = l.currency, timezone = l.timezone, slot_minutes = l.slot_minutes, capacity = l.capacity,
           weekly_hours = l.weekly_hours, min_notice_minutes = l.min_notice_minutes, horizon_days = l.horizon_days
      from garages l
     where s.id = ${sandboxId} and l.id = ${liveId}`.execute(trx);

  await sql`delete from garage_closures where garage_id = ${sandboxId}`.execute(trx);
  await sql`
    insert into garage_closures (garage_id, from_date, to_date, reason)
    select ${sandboxId}, from_date, to_date, reason from garage_closures where garage_id = ${liveId}`.execute(trx);

  // Under the sandbox's catalog lock, later than every catalog row it has: a sync by updatedSince sees the copy.
  const at = await catalogWriteTime(trx, sandboxId);
  await sql`
    delete from stock s
     where s.garage_id = ${sandboxId}
       and not exists (select 1 from products sp join products lp on lp.garage_id = ${liveId} and lp.sku = sp.sku
                         join stock ls on ls.product_id = lp.id
                        where sp.id = s.product_id)`.execute(trx);
  await sql`
    delete from products p
     where p.garage_id = ${sandboxId}
       and not exists (select 1 from products l where l.garage_id = ${liveId} and l.sku = p.sku)`.execute(trx);
  const products = upsertChanges('products', PRODUCT_COLUMNS);
  await sql`
    insert into products (garage_id, sku, ${columnList(PRODUCT_COLUMNS)}, created_at, updated_at)
    select ${sandboxId}, sku, ${columnList(PRODUCT_COLUMNS)}, ${at}, ${at} from products where garage_id = ${liveId}
        on conflict (garage_id, sku) do update
       set ${sql.join(PRODUCT_COLUMNS.map((c) => sql`${sql.ref(c)} = ${products.set[c]}`))}, updated_at = ${at}
     where ${products.changed}`.execute(trx);
  await sql`
    insert into stock as s (product_id, garage_id, quantity, updated_at)
    select sp.id, ${sandboxId}, ls.quantity, ${at}
      from stock ls
      join products lp on lp.id = ls.product_id
      join products sp on sp.garage_id = ${sandboxId} and sp.sku = lp.sku
     where ls.garage_id = ${liveId}
        on conflict (product_id) do update set quantity = excluded.quantity, updated_at = excluded.updated_at
     where s.quantity is distinct from excluded.quantity`.execute(trx);

  await sql`
    delete from vehicles v
     where v.garage_id = ${sandboxId}
       and not exists (select 1 from vehicles l where l.garage_id = ${liveId} and l.reference = v.reference)`.execute(trx);
  const vehicles = upsertChanges('vehicles', VEHICLE_COLUMNS);
  await sql`
    insert into vehicles (garage_id, reference, ${columnList(VEHICLE_COLUMNS)}, published_at)
    select ${sandboxId}, reference, ${columnList(VEHICLE_COLUMNS)}, published_at from vehicles where garage_id = ${liveId}
        on conflict (garage_id, reference) do update
       set ${sql.join(VEHICLE_COLUMNS.map((c) => sql`${sql.ref(c)} = ${vehicles.set[c]}`))}, published_at = excluded.published_at,
           updated_at = ${nowMs}
     where ${vehicles.changed}`.execute(trx);
};

/** `SandboxStore` on the transaction of a unit of work: a copy and the garage it makes commit together. */
export const makeSandboxStore = (trx: Transaction<Database>): SandboxStore => ({
  async create({ liveGarageId, slug, limits }) {
    if (!isUuid(liveGarageId)) throw new NotFoundError('Garage not found');
    const row = await trx
      .insertInto('garages')
      .columns([
        'slug', 'name', 'currency', 'timezone', 'slot_minutes', 'capacity', 'weekly_hours', 'min_notice_minutes', 'horizon_days',
        'sandbox_of', 'appointment_limit', 'quote_limit',
      ])
      .expression((eb) =>
        eb
          .selectFrom('garages')
          .select([
            eb.val(slug).as('slug'),
            sql<string>`name || ' (sandbox)'`.as('name'),
            'currency', 'timezone', 'slot_minutes', 'capacity', 'weekly_hours', 'min_notice_minutes', 'horizon_days',
            'id',
            eb.val(limits.appointments).as('appointment_limit'),
            eb.val(limits.quotes).as('quote_limit'),
          ])
          .where('id', '=', liveGarageId),
      )
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Garage not found');
    await copyFromLive(trx, row.id, liveGarageId);
    return toGarage(row);
  },

  async reset(sandboxGarageId, idempotencyScopes) {
    if (!isUuid(sandboxGarageId)) return false;
    // Locks the sandbox's row: a reset waits for the limited inserts in flight, and they for it (migration 0015).
    const sandbox = await trx
      .selectFrom('garages')
      .select('sandbox_of')
      .where('id', '=', sandboxGarageId)
      .where('sandbox_of', 'is not', null)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!sandbox?.sandbox_of) return false;
    await sql`delete from appointments where garage_id = ${sandboxGarageId}`.execute(trx);
    // The days' versions move rather than vanish: what availability keeps per version stays right.
    await sql`update booking_days set version = version + 1 where garage_id = ${sandboxGarageId}`.execute(trx);
    await sql`delete from leads where garage_id = ${sandboxGarageId}`.execute(trx);
    await sql`delete from quotes where garage_id = ${sandboxGarageId}`.execute(trx);
    // Deliveries and their attempts go with their events.
    await sql`delete from webhook_events where garage_id = ${sandboxGarageId}`.execute(trx);
    if (idempotencyScopes.length > 0) {
      await trx.deleteFrom('idempotency_keys').where('scope', 'in', [...idempotencyScopes]).execute();
    }
    await copyFromLive(trx, sandboxGarageId, sandbox.sandbox_of);
    return true;
  },
});
