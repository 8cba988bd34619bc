import t from 'tap';
import { sql } from 'kysely';
import { connectPostgres } from '../src/db.js';
import { createTestDatabase } from '@garage/postgres/testing';

t.test('closing a Postgres handle that only answered readiness probes ends its pool', async (t) => {
  const database = await createTestDatabase('pgdb');
  t.teardown(() => database.drop());
  const handle = connectPostgres({ connectionString: database.url });
  await handle.ping();
  await handle.close();
  t.equal(handle.pool?.ended, true);
});

t.test('a transaction is one: a failure rolls back what came before it, the isolation level asked for applies, the connection is reused', async (t) => {
  const database = await createTestDatabase('pgdb');
  const handle = connectPostgres({ connectionString: database.url, max: 1 });
  t.teardown(async () => {
    await handle.close();
    await database.drop();
  });
  await sql`create table notes (id int primary key)`.execute(handle.db);
  await t.rejects(
    handle.db.transaction().execute(async (tx) => {
      await sql`insert into notes values (${1})`.execute(tx);
      await sql`insert into notes values (${1})`.execute(tx);
    }),
    /duplicate key/,
  );
  t.same((await sql<{ n: number }>`select count(*)::int as n from notes`.execute(handle.db)).rows, [{ n: 0 }]);
  const isolation = await handle.db
    .transaction()
    .setIsolationLevel('serializable')
    .execute(async (tx) => (await sql<{ level: string }>`select current_setting('transaction_isolation') as level`.execute(tx)).rows[0]?.level);
  t.equal(isolation, 'serializable');
});
