import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Sandbox data as the retention job sees it (docs/operators/retention.md, "Sandbox data"): not a table, but what
 * connectors created in the sandboxes (appointments, leads, quotes, webhook events with their deliveries and attempts),
 * dated by the sandbox's last touch rather than by each row.
 *
 * A sandbox is touched by a reset or its first copy (`copied_at`), a request with its test key (the test side's
 * `last_used_at`), and any write to its appointments, quotes or leads (a lead comes from a website, without a key).
 * Each part is read through an index on the sandbox's garage (appointments by `updated_at`, leads by `created_at`:
 * one entry each; quotes whole, at most 1,000 in a sandbox by SANDBOX_LIMITS).
 */
const lastTouchedAt = (sandbox: RawBuilder<unknown>) => sql<Date>`greatest(
  ${sandbox}.copied_at,
  (select max(i.last_used_at) from integrations i where i.garage_id = ${sandbox}.id),
  (select max(a.updated_at) from appointments a where a.garage_id = ${sandbox}.id),
  (select max(greatest(q.created_at, q.decided_at)) from quotes q where q.garage_id = ${sandbox}.id),
  (select max(l.created_at) from leads l where l.garage_id = ${sandbox}.id))`;

const holdsData = (sandbox: RawBuilder<unknown>) => sql<boolean>`(
  exists (select 1 from appointments a where a.garage_id = ${sandbox}.id)
  or exists (select 1 from quotes q where q.garage_id = ${sandbox}.id)
  or exists (select 1 from leads l where l.garage_id = ${sandbox}.id)
  or exists (select 1 from webhook_events e where e.garage_id = ${sandbox}.id))`;

const s = sql.raw('s');

/** Sandboxes looked at per batch: enough to fill a batch from many small sandboxes, few enough to list in a statement. */
const SANDBOXES_PER_BATCH = 100;

/**
 * Statements that each delete at most `limit` rows of one kind from the `stale` sandboxes (an array of their ids,
 * computed once per statement so that every table is read through its index on the garage), children before their
 * parents so that no delete cascades far. Deleting appointments moves the versions of their days (the trigger
 * `appointment_days_changed`), so that no instance keeps places taken by appointments that are gone.
 */
const deletes: ((stale: RawBuilder<unknown>, limit: number) => RawBuilder<unknown>)[] = [
  (stale, limit) =>
    sql`delete from webhook_attempts where ctid = any(array(
      select wa.ctid from webhook_attempts wa
        join webhook_deliveries d on d.id = wa.delivery_id
        join integrations i on i.id = d.integration_id
       where i.garage_id = any(${stale}) limit ${limit}))`,
  (stale, limit) =>
    sql`delete from webhook_deliveries where ctid = any(array(
      select d.ctid from webhook_deliveries d join integrations i on i.id = d.integration_id
       where i.garage_id = any(${stale}) limit ${limit}))`,
  (stale, limit) =>
    sql`delete from webhook_events where ctid = any(array(
      select ctid from webhook_events where garage_id = any(${stale}) limit ${limit}))`,
  (stale, limit) =>
    sql`delete from appointments where ctid = any(array(
      select ctid from appointments where garage_id = any(${stale}) limit ${limit}))`,
  (stale, limit) =>
    sql`delete from quotes where ctid = any(array(select ctid from quotes where garage_id = any(${stale}) limit ${limit}))`,
  (stale, limit) =>
    sql`delete from leads where ctid = any(array(select ctid from leads where garage_id = any(${stale}) limit ${limit}))`,
];

/**
 * Deletes at most `limit` rows of the data of sandboxes untouched since `before`, in short statements of at most
 * `limit` rows each, autocommit (no transaction holds their locks together); returns how many (fewer than `limit`:
 * none is left). Sandboxes are taken a hundred at a time, and each statement checks again that its sandboxes are
 * untouched: one used since it was picked keeps its data. The sandbox garages, their copied catalog, their test keys
 * and webhook settings stay: the next request finds an empty sandbox, as after a reset.
 */
export const purgeSandboxData = async (db: Kysely<any>, before: Date, limit: number): Promise<number> => {
  let total = 0;
  while (total < limit) {
    const { rows } = await sql<{ id: string }>`
      select s.id from garages s
       where s.sandbox_of is not null and ${lastTouchedAt(s)} <= ${before} and ${holdsData(s)}
       limit ${SANDBOXES_PER_BATCH}`.execute(db);
    if (rows.length === 0) break;
    const stale = sql`array(
      select s.id from garages s where s.id in (${sql.join(rows.map((r) => r.id))}) and ${lastTouchedAt(s)} <= ${before})`;
    const start = total;
    for (const statement of deletes) {
      if (total >= limit) break;
      const result = await statement(stale, limit - total).execute(db);
      total += Number(result.numAffectedRows ?? 0);
    }
    // Every sandbox picked was touched meanwhile: the next pick would find them again.
    if (total === start) break;
  }
  return total;
};

/** When the least recently touched sandbox that still holds data was touched, or null when none does. */
export const oldestSandboxDataAt = async (db: Kysely<any>): Promise<Date | null> => {
  const { rows } = await sql<{ oldest: Date | null }>`
    select min(${lastTouchedAt(s)}) as oldest from garages s where s.sandbox_of is not null and ${holdsData(s)}`.execute(db);
  return rows[0]?.oldest ?? null;
};
