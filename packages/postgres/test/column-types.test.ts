import pg from 'pg';
import t from 'tap';
import { connectPostgres } from '../src/db.js';
import { createTestDatabase } from '@garage/postgres/testing';

t.test("a pool of the adapter reads a date as its text, a timestamp as pg's Date; other pg clients keep pg's parsers", async (t) => {
  const database = await createTestDatabase('column_types');
  t.teardown(() => database.drop());
  const handle = connectPostgres({ connectionString: database.url, max: 1 });
  t.teardown(() => handle.close());
  const query = `select date '2026-03-29' as day, timestamptz '2026-11-26 09:31:15.123456+00' as at`;
  for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
    await handle.pool!.query(`set timezone = '${zone}'`);
    const { rows } = await handle.pool!.query<{ day: unknown; at: Date }>(query);
    const [row] = rows;
    t.equal(row?.day, '2026-03-29', `${zone}: a date stays the day Postgres wrote, whatever the process time zone`);
    t.equal(row?.at.toISOString(), '2026-11-26T09:31:15.123Z', `${zone}: a timestamptz is the instant`);
  }

  // A client that is not the adapter's: the process-wide parsers were left alone.
  const other = new pg.Client({ connectionString: database.url });
  await other.connect();
  t.teardown(() => other.end());
  const { rows } = await other.query<{ day: unknown }>(`select date '2026-03-29' as day`);
  t.type(rows[0]?.day, Date, "pg's default for a date");
});
