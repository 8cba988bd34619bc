import { DAY_MS, makeEnforceRetention, makeMeasureRetention, SANDBOX_LIMITS, type RetentionStore } from '@garage/domain';
import { testClock } from '@garage/domain/testing';
import { backends, insertGarage, insertIntegration } from '@garage/postgres/testing';
import { sql, type Kysely } from 'kysely';
import t from 'tap';
import { makeUnitOfWork, type Database } from '../src/index.js';
import { makeRetentionStore, retainedTables, retentionPoliciesOf } from '../src/retention/index.js';

/**
 * docs/operators/retention.md, "Sandbox data": the data of a sandbox untouched for SANDBOX_RETENTION_DAYS goes, in
 * batches; a sandbox used since keeps its data, and a live garage is never touched, however old its rows.
 */
const NOW = new Date('2026-12-15T12:00:00Z');
const clock = testClock(NOW.toISOString());
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);
const settings = { webhookEventDays: 30, webhookDeliveryDays: 30, sandboxDays: 20, requestLogDays: 7 };
const DATA_TABLES = ['appointments', 'quotes', 'leads', 'webhook_events', 'webhook_deliveries', 'webhook_attempts'] as const;

/** Appointments, quotes, leads and events (each with a delivery and an attempt) of a garage, written `at`. */
const seed = async (db: Kysely<Database>, garageId: string, integrationId: string, at: Date, count: number) => {
  const vehicle = await db.selectFrom('vehicles').select('id').where('garage_id', '=', garageId).executeTakeFirstOrThrow();
  for (let i = 0; i < count; i += 1) {
    const startsAt = new Date(NOW.getTime() + (i + 1) * DAY_MS);
    await db
      .insertInto('appointments')
      .values({
        garage_id: garageId, integration_id: integrationId, starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 3_600_000),
        duration_minutes: 60, customer_name: 'Ada', created_at: at, updated_at: at,
      })
      .execute();
    await db
      .insertInto('quotes')
      .values({
        garage_id: garageId, number: `Q-${at.getTime()}-${i}`, token_hash: `${garageId}-${at.getTime()}-${i}`, customer_name: 'Ada',
        lines: '[]', total_cents: 100, currency: 'EUR', expires_at: NOW, created_at: at,
      })
      .execute();
    await db.insertInto('leads').values({ garage_id: garageId, vehicle_id: vehicle.id, name: 'Ada', consent: true, created_at: at }).execute();
    const event = await db.insertInto('webhook_events').values({ garage_id: garageId, type: 'lead.created', payload: '{}', created_at: at }).returning('id').executeTakeFirstOrThrow();
    const delivery = await db
      .insertInto('webhook_deliveries')
      .values({ event_id: event.id, integration_id: integrationId, url: 'http://127.0.0.1:9/hook', status: 'succeeded', created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('webhook_attempts').values({ delivery_id: delivery.id, attempted_at: at, status_code: 204, duration_ms: 3 }).execute();
  }
};

for (const backend of backends) {
  t.test(`on ${backend.name}`, async (t) => {
    const database = await backend.open();
    t.teardown(database.drop);
    const { db } = database.handle;

    const liveGarage = await insertGarage(db);
    const live = await insertIntegration(db, liveGarage, { webhookUrl: 'http://127.0.0.1:9/hook' });
    // Copied into each sandbox, with the catalog: the vehicle its leads are about.
    await db
      .insertInto('vehicles')
      .values({ garage_id: liveGarage, reference: 'V-1', make: 'Renault', model: 'Clio', year: 2020, mileage_km: 1, fuel: 'petrol', gearbox: 'manual', price_cents: 1, currency: 'EUR', photos: '[]' })
      .execute();
    await sql`insert into products (garage_id, sku, name, price_cents, currency, vat_rate, unit) values (${liveGarage}, 'OIL', 'Oil', 100, 'EUR', 20, 'l')`.execute(db);
    /** A sandbox of the live garage for a live integration of its own, copied `copiedDaysAgo`, its test key last used `usedDaysAgo`. */
    const sandbox = async (slug: string, copiedDaysAgo: number, usedDaysAgo: number | null) => {
      const owner = await insertIntegration(db, liveGarage, { webhookUrl: null });
      const garage = await makeUnitOfWork(db).run((tx) => tx.sandboxes.create({ liveGarageId: liveGarage, slug, limits: SANDBOX_LIMITS }));
      const testSide = await insertIntegration(db, garage.id, { webhookUrl: 'http://127.0.0.1:9/test-hook' });
      await db
        .updateTable('integrations')
        .set({ live_integration_id: owner.id, last_used_at: usedDaysAgo === null ? null : daysAgo(usedDaysAgo) })
        .where('id', '=', testSide.id)
        .execute();
      await db.updateTable('garages').set({ copied_at: daysAgo(copiedDaysAgo) }).where('id', '=', garage.id).execute();
      return { garageId: garage.id, integrationId: testSide.id, liveIntegrationId: owner.id };
    };

    // Untouched for 25 days: its data goes.
    const stale = await sandbox('stale-test', 40, 25);
    await seed(db, stale.garageId, stale.integrationId, daysAgo(26), 4);
    // Never used with its key, its data as old: it goes too.
    const unused = await sandbox('unused-test', 28, null);
    await seed(db, unused.garageId, unused.integrationId, daysAgo(28), 1);
    // Its test key was used 2 days ago: it keeps its data, however old.
    const used = await sandbox('used-test', 40, 2);
    await seed(db, used.garageId, used.integrationId, daysAgo(26), 2);
    // A lead came from its website yesterday (no key): it keeps its data.
    const lead = await sandbox('lead-test', 40, 25);
    await seed(db, lead.garageId, lead.integrationId, daysAgo(26), 1);
    const leadVehicle = await db.selectFrom('vehicles').select('id').where('garage_id', '=', lead.garageId).executeTakeFirstOrThrow();
    await db.insertInto('leads').values({ garage_id: lead.garageId, vehicle_id: leadVehicle.id, name: 'Bo', consent: true, created_at: daysAgo(1) }).execute();
    // Reset 3 days ago: a reset touches it, whatever the age of its rows.
    const reset = await sandbox('reset-test', 3, 25);
    await seed(db, reset.garageId, reset.integrationId, daysAgo(26), 1);
    // The live garage's rows, older than any sandbox retention (its events younger than their own retention).
    await seed(db, liveGarage, live.id, daysAgo(25), 3);
    await db.updateTable('appointments').set({ updated_at: daysAgo(400), created_at: daysAgo(400) }).where('garage_id', '=', liveGarage).execute();
    await db.updateTable('quotes').set({ created_at: daysAgo(400) }).where('garage_id', '=', liveGarage).execute();
    await db.updateTable('leads').set({ created_at: daysAgo(400) }).where('garage_id', '=', liveGarage).execute();
    const versionsOf = async (garageId: string) =>
      (await db.selectFrom('booking_days').select('version').where('garage_id', '=', garageId).orderBy('local_date').execute()).map((d) => Number(d.version));
    const versionsBefore = await versionsOf(stale.garageId);

    const countOf = async (garageId: string) => {
      const counts: Record<string, number> = {};
      for (const table of DATA_TABLES) {
        const scope =
          table === 'webhook_deliveries'
            ? sql`event_id in (select id from webhook_events where garage_id = ${garageId})`
            : table === 'webhook_attempts'
              ? sql`delivery_id in (select d.id from webhook_deliveries d join webhook_events e on e.id = d.event_id where e.garage_id = ${garageId})`
              : sql`garage_id = ${garageId}`;
        counts[table] = Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where ${scope}`.execute(db)).rows[0]!.n);
      }
      return counts;
    };
    const each = (n: number) => Object.fromEntries(DATA_TABLES.map((table) => [table, n]));
    const liveBefore = await countOf(liveGarage);
    const catalogOf = async (garageId: string) =>
      Number((await sql<{ n: string }>`select count(*) as n from products where garage_id = ${garageId}`.execute(db)).rows[0]!.n);
    const catalogBefore = await catalogOf(stale.garageId);

    const tables = retainedTables(settings);
    const store = makeRetentionStore(db, tables);
    const batches: { table: string; deleted: number }[] = [];
    const counting: RetentionStore = {
      purgeBatch: async (table, before, limit) => {
        const deleted = await store.purgeBatch(table, before, limit);
        batches.push({ table, deleted });
        return deleted;
      },
      oldestRowAt: (table) => store.oldestRowAt(table),
    };
    const policies = retentionPoliciesOf(tables, settings);
    const measure = makeMeasureRetention({ store, clock, policies });
    const sandboxAge = async () => (await measure()).find((age) => age.table === 'sandbox');

    t.test('the metric shows the least recently touched sandbox that holds data', async (t) => {
      t.same(await sandboxAge(), { table: 'sandbox', oldestRowAgeSeconds: 28 * 86_400, retentionSeconds: 20 * 86_400 });
    });

    t.test('a run deletes at most maxBatches batches of batchSize rows; the next run goes on', async (t) => {
      const enforce = makeEnforceRetention({ store: counting, clock, policies, limits: { batchSize: 5, maxBatches: 2 } });
      t.match(await enforce(), { sandbox: 10 });
      const sandboxBatches = batches.filter((b) => b.table === 'sandbox');
      t.same(sandboxBatches.map((b) => b.deleted), [5, 5], 'two batches of 5 rows');
      const left = [await countOf(stale.garageId), await countOf(unused.garageId)].flatMap((c) => Object.values(c)).reduce((a, b) => a + b);
      t.equal(left, 6 * 5 - 10, 'the rest is left for the next run');
    });

    t.test('the data of untouched sandboxes goes; used sandboxes and the live garage keep theirs', async (t) => {
      const enforce = makeEnforceRetention({ store: counting, clock, policies, limits: { batchSize: 5, maxBatches: 100 } });
      await enforce();
      t.ok(batches.every((b) => b.deleted <= 5), 'no batch larger than its limit');
      t.same(await countOf(stale.garageId), each(0), 'an untouched sandbox is emptied');
      t.same(await countOf(unused.garageId), each(0), 'a sandbox whose test key was never used, untouched since its copy');
      t.same(await countOf(used.garageId), each(2), 'a sandbox whose test key was used keeps its data');
      t.same(await countOf(lead.garageId), { ...each(1), leads: 2 }, 'a sandbox that received a lead keeps its data');
      t.same(await countOf(reset.garageId), each(1), 'a sandbox reset recently keeps its data');
      t.same(await countOf(liveGarage), liveBefore, 'the live garage keeps every row, however old');
      t.match(await enforce(), { sandbox: 0 }, 'nothing left to do');
    });

    t.test('the emptied sandbox still works as after a reset', async (t) => {
      const garage = await db.selectFrom('garages').select(['sandbox_of']).where('id', '=', stale.garageId).executeTakeFirstOrThrow();
      t.equal(garage.sandbox_of, liveGarage, 'the sandbox garage stays');
      t.equal(await catalogOf(stale.garageId), catalogBefore, 'its copied catalog stays');
      const testSide = await db.selectFrom('integrations').select(['revoked_at', 'live_integration_id']).where('id', '=', stale.integrationId).executeTakeFirstOrThrow();
      t.same(testSide, { revoked_at: null, live_integration_id: stale.liveIntegrationId }, 'its test key stays');
      const versions = await versionsOf(stale.garageId);
      t.ok(versionsBefore.length > 0, 'its appointments had taken places on their days');
      t.equal(versions.length, versionsBefore.length);
      t.ok(
        versions.every((v, i) => v > versionsBefore[i]!),
        'the booking versions of its days moved: no instance keeps places taken by deleted appointments',
      );
    });

    t.test('the metric then shows the least recently touched sandbox still holding data', async (t) => {
      t.same(await sandboxAge(), { table: 'sandbox', oldestRowAgeSeconds: 3 * 86_400, retentionSeconds: 20 * 86_400 });
      await sql`delete from appointments where garage_id in (${used.garageId}, ${lead.garageId}, ${reset.garageId})`.execute(db);
      await sql`delete from quotes where garage_id in (${used.garageId}, ${lead.garageId}, ${reset.garageId})`.execute(db);
      await sql`delete from leads where garage_id in (${used.garageId}, ${lead.garageId}, ${reset.garageId})`.execute(db);
      await sql`delete from webhook_events where garage_id in (${used.garageId}, ${lead.garageId}, ${reset.garageId})`.execute(db);
      t.equal((await sandboxAge())?.oldestRowAgeSeconds, 0, 'no sandbox holds data: age 0');
    });
  });
}
