import { sql } from 'kysely';
import t from 'tap';
import { createTestDatabase, insertGarage } from '@garage/postgres/testing';

/**
 * The occupancy read behind booking, rescheduling and availability is one query that an index serves: the partial
 * index of the appointments that hold a place. The planner's choice on a tiny table is no proof, so sequential scans
 * are turned off: if the index could not serve the query, the plan would still show a scan of the table. The queries
 * are those of appointment-repository.ts (listOverlapping, list).
 */
t.test('occupancy reads use appointments_place_idx; the list uses appointments_sync_idx', async (t) => {
  const database = await createTestDatabase('plan');
  t.teardown(() => database.drop());
  const { db } = database.handle;
  const garageId = await insertGarage(db);
  const plans: string[] = [];
  await db.connection().execute(async (conn) => {
    await sql`set enable_seqscan = off`.execute(conn);
    const plan = async (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
      const compiled = query.compile();
      const rows = await sql.raw<{ 'QUERY PLAN': string }>(`explain ${inline(compiled.sql, compiled.parameters)}`).execute(conn);
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    plans.push(
      await plan(
        conn
          .selectFrom('appointments')
          .select(['starts_at', 'ends_at'])
          .where('garage_id', '=', garageId)
          .where('status', '<>', sql.lit('cancelled'))
          .where('starts_at', '>', new Date('2030-01-06T16:00:00Z'))
          .where('starts_at', '<', new Date('2030-01-08T00:00:00Z'))
          .where('ends_at', '>', new Date('2030-01-07T00:00:00Z')),
      ),
      await plan(
        conn.selectFrom('appointments').selectAll().where('garage_id', '=', garageId).orderBy('updated_at').orderBy('id').limit(100),
      ),
    );
  });
  t.match(plans[0], /appointments_place_idx/, String(plans[0]));
  t.match(plans[1], /appointments_sync_idx/, String(plans[1]));
});

/** Parameters written into the statement, for EXPLAIN (which takes no bind parameters here). */
const inline = (text: string, parameters: readonly unknown[]) =>
  text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = parameters[Number(n) - 1];
    return value instanceof Date ? `'${value.toISOString()}'` : `'${String(value).replace(/'/g, "''")}'`;
  });
