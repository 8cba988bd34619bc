import { sql } from 'kysely';
import t from 'tap';
import { createTestDatabase, insertGarage } from '@garage/postgres/testing';
import { placesStatement } from '../src/repositories/availability-reader.js';

/**
 * The occupancy read behind booking, rescheduling and availability is one statement, the function `booking_places`
 * (src/sql-rules/booking-days.ts), which the planner inlines so that the partial index of the appointments that hold
 * a place serves it; availability's read of the versions of its days uses the primary key of `booking_days`. The planner's choice
 * on a tiny table is no proof, so sequential scans are turned off: if an index could not serve a query, the plan
 * would still show a scan of the table. The statements are those the repositories send.
 */
t.test('occupancy reads use appointments_place_idx, day versions booking_days_pkey; the list uses appointments_sync_idx', async (t) => {
  const database = await createTestDatabase('plan');
  t.teardown(() => database.drop());
  const { db } = database.handle;
  const garageId = await insertGarage(db);
  const span = { from: new Date('2030-01-07T00:00:00Z'), to: new Date('2030-02-07T00:00:00Z') };
  const plans: string[] = [];
  await db.connection().execute(async (conn) => {
    await sql`set enable_seqscan = off`.execute(conn);
    const plan = async (query: { compile(executor: typeof conn): { sql: string; parameters: readonly unknown[] } }) => {
      const compiled = query.compile(conn);
      const rows = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${inline(compiled.sql, compiled.parameters)}`).execute(conn);
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    plans.push(
      await plan(placesStatement(garageId, '2030-01-07', '2030-02-06', span)),
      await plan({
        compile: (executor) =>
          executor.selectFrom('appointments').selectAll().where('garage_id', '=', garageId).orderBy('updated_at').orderBy('id').limit(100).compile(),
      }),
    );
  });
  const [places, list] = plans;
  t.match(places, /appointments_place_idx/, String(places));
  t.notMatch(places, /Function Scan/, `booking_places is inlined: ${places}`);
  t.match(places, /booking_days_pkey/, String(places));
  t.notMatch(places, /Seq Scan/);
  t.match(list, /appointments_sync_idx/, String(list));
});

/** Parameters written into the statement, for EXPLAIN (which takes no bind parameters here). */
const inline = (text: string, parameters: readonly unknown[]) =>
  text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = parameters[Number(n) - 1];
    if (value === null) return 'null';
    return value instanceof Date ? `'${value.toISOString()}'` : `'${String(value).replace(/'/g, "''")}'`;
  });
