import { NotFoundError, isUuid, type SandboxStore } from '@garage/domain';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { catalogWriteTime, nowMs } from './clocks.js';
import { toGarage } from './garage-rows.js';

/** The columns a copy takes from the live row; the garage, the id and the times are the sandbox's own. */
const PRODUCT_COLUMNS = ['name', 'description', 'category', 'brand', 'price_cents', 'currency', 'vat_rate', 'unit', 'active'] as const;
const VEHICLE_COLUMNS = [
  'make', 'model', 'version', 'year', 'mileage_km', 'fuel', 'gearbox', 'price_cents', 'currency', 'color',
  'description', 'photos', 'status',
] as const;

const columnList = (columns: readonly string[]) => sql.join(columns.map((c) => sql.ref(c)));

/** `set a = l.a, …` and `(s.a, …) is distinct from (l.a, …)` over `columns`, the sandbox row `s`, the live row `l`. */
const fromLive = (columns: readonly string[]) => ({
  set: sql.join(columns.map((c) => sql`${sql.ref(c)} = ${sql.ref(`l.${c}`)}`)),
  changed: sql`(${sql.join(columns.map((c) => sql.ref(`s.${c}`)))}) is distinct from (${sql.join(columns.map((c) => sql.ref(`l.${c}`)))})`,
});

/**
 * Where a copy may start: the newest live catalog write the sandbox already holds, or null for a whole comparison.
 * A sandbox whose own catalog was written since its last copy (an operator's import into it), or whose row counts
 * differ from the live garage's (a row deleted by hand), is compared whole.
 */
const copyStart = async (trx: Transaction<Database>, sandboxId: string, liveId: string): Promise<Date | null> => {
  const { rows } = await sql<{ since: Date | null }>`
    select g.live_copied_through as since
      from garages g
     where g.id = ${sandboxId}
       and g.copied_at is not null
       and coalesce((select max(updated_at) from products where garage_id = g.id), '-infinity') <= g.copied_at
       and coalesce((select max(updated_at) from stock where garage_id = g.id), '-infinity') <= g.copied_at
       and (select count(*) from products where garage_id = g.id) = (select count(*) from products where garage_id = ${liveId})
       and (select count(*) from stock where garage_id = g.id) = (select count(*) from stock where garage_id = ${liveId})`.execute(trx);
  return rows[0]?.since ?? null;
};

/**
 * Brings a sandbox's settings, closures, catalog, stock and vehicles to the live garage's, a few statements per table
 * whatever its size (docs/operators/performance.md, "Sandbox copies"). Rows are matched by business key (`sku`,
 * `reference`): a sandbox row keeps its id across resets, a changed row gets the live values and a new `updated_at`,
 * an unchanged one is not written at all (each write runs the row's list-item trigger), a live row the sandbox lacks
 * is inserted under a new id, and a sandbox row whose live row is gone is deleted (nothing references it any more:
 * appointments and leads are emptied first). After a first copy, only the live catalog rows written since the last
 * one are read: live catalog writes take times later than every committed row (catalogWriteTime), so the newest time
 * read before copying bounds what the copy holds.
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

  const since = await copyStart(trx, sandboxId, liveId);
  // Read before copying: a live write committed meanwhile is copied now or, being later, by the next copy.
  const { through } = await trx
    .selectNoFrom(
      sql<Date | null>`greatest((select max(updated_at) from products where garage_id = ${liveId}),
                                (select max(updated_at) from stock where garage_id = ${liveId}))`.as('through'),
    )
    .executeTakeFirstOrThrow();
  const changedLive = (alias: string) => (since === null ? sql`true` : sql`${sql.ref(`${alias}.updated_at`)} > ${since}`);
  // Under the sandbox's catalog lock, later than every catalog row it has: a sync by updatedSince sees the copy.
  const at = await catalogWriteTime(trx, sandboxId);

  if (since === null) {
    // Their stock rows go with them (the foreign key cascades).
    await sql`
      delete from products s
       where s.garage_id = ${sandboxId}
         and not exists (select 1 from products l where l.garage_id = ${liveId} and l.sku = s.sku)`.execute(trx);
  }
  const products = fromLive(PRODUCT_COLUMNS);
  await sql`
    update products s set ${products.set}, updated_at = ${at}
      from products l
     where s.garage_id = ${sandboxId} and l.garage_id = ${liveId} and ${changedLive('l')} and l.sku = s.sku and ${products.changed}`.execute(trx);
  const inserted = await sql`
    insert into products (garage_id, sku, ${columnList(PRODUCT_COLUMNS)}, created_at, updated_at)
    select ${sandboxId}, l.sku, ${sql.join(PRODUCT_COLUMNS.map((c) => sql.ref(`l.${c}`)))}, ${at}, ${at}
      from products l
     where l.garage_id = ${liveId} and ${changedLive('l')}
       and not exists (select 1 from products s where s.garage_id = ${sandboxId} and s.sku = l.sku)`.execute(trx);
  // Many rows just written: without fresh statistics the planner takes the sandbox for empty and joins its stock by
  // nested loops, which turns 100,000 rows into minutes. ANALYZE reads a sample, whatever the table's size.
  if (Number(inserted.numAffectedRows ?? 0) > 1000) await sql`analyze products`.execute(trx);

  // One statement: the live stock (what changed of it) as the sandbox's products hold it is joined once, then rows
  // the live garage no longer stocks are deleted, changed quantities updated and missing rows inserted (each part
  // sees the table as it was before the statement, and no two parts touch one row).
  await sql`
    with l as materialized (
      select sp.id as product_id, ls.quantity
        from stock ls
        join products lp on lp.id = ls.product_id
        join products sp on sp.garage_id = ${sandboxId} and sp.sku = lp.sku
       where ls.garage_id = ${liveId} and ${changedLive('ls')}
    ),
    removed as (
      delete from stock s
       where ${since === null ? sql`true` : sql`false`} and s.garage_id = ${sandboxId} and s.product_id not in (select product_id from l)
      returning 1
    ),
    changed as (
      update stock s set quantity = l.quantity, updated_at = ${at} from l
       where s.product_id = l.product_id and s.quantity <> l.quantity returning 1
    )
    insert into stock (product_id, garage_id, quantity, updated_at)
    select l.product_id, ${sandboxId}, l.quantity, ${at} from l
     where not exists (select 1 from stock s where s.product_id = l.product_id)`.execute(trx);

  // Vehicles are few per garage, and their times are not a catalog clock's: they are compared whole every time.
  await sql`
    delete from vehicles s
     where s.garage_id = ${sandboxId}
       and not exists (select 1 from vehicles l where l.garage_id = ${liveId} and l.reference = s.reference)`.execute(trx);
  const vehicles = fromLive([...VEHICLE_COLUMNS, 'published_at']);
  await sql`
    update vehicles s set ${vehicles.set}, updated_at = ${nowMs}
      from vehicles l
     where s.garage_id = ${sandboxId} and l.garage_id = ${liveId} and l.reference = s.reference and ${vehicles.changed}`.execute(trx);
  await sql`
    insert into vehicles (garage_id, reference, ${columnList(VEHICLE_COLUMNS)}, published_at)
    select ${sandboxId}, l.reference, ${sql.join(VEHICLE_COLUMNS.map((c) => sql.ref(`l.${c}`)))}, l.published_at
      from vehicles l
     where l.garage_id = ${liveId}
       and not exists (select 1 from vehicles s where s.garage_id = ${sandboxId} and s.reference = l.reference)`.execute(trx);

  await sql`update garages set copied_at = ${at}, live_copied_through = ${through} where id = ${sandboxId}`.execute(trx);
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
    const sandbox = await trx
      .selectFrom('garages')
      .select('sandbox_of')
      .where('id', '=', sandboxGarageId)
      .where('sandbox_of', 'is not', null)
      .executeTakeFirst();
    if (!sandbox?.sandbox_of) return false;
    // Locks in the order a booking takes them, its day and then (for a limited garage, migration 0015) the garage
    // row, so that a reset and a booking in flight wait for each other instead of deadlocking. The days' versions
    // move rather than vanish: what availability keeps per version stays right.
    await sql`update booking_days set version = version + 1 where garage_id = ${sandboxGarageId}`.execute(trx);
    await trx.selectFrom('garages').select('id').where('id', '=', sandboxGarageId).forNoKeyUpdate().execute();
    await sql`delete from appointments where garage_id = ${sandboxGarageId}`.execute(trx);
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
