import { sql } from 'kysely';
import t from 'tap';
import { connectPostgres } from '../src/db.js';
import { inTransaction, TRANSACTION_ATTEMPTS } from '../src/transactions.js';
import { createTestDatabase } from '@garage/postgres/testing';

const database = await createTestDatabase('transactions');
const { handle } = database;
t.teardown(() => database.drop());
await sql`create table tallies (run int not null)`.execute(handle.db);

/** A Postgres error as pg reports it: a SQLSTATE, no message to match on. */
const postgresError = (code: string) => Object.assign(new Error(`SQLSTATE ${code}`), { code });

t.beforeEach(async () => {
  await sql`truncate tallies`.execute(handle.db);
});

const tallied = async () => (await sql<{ run: number }>`select run from tallies order by run`.execute(handle.db)).rows.map((row) => row.run);

t.test('a run that a deadlock ended is rolled back and run again; the caller gets the answer of the run that committed', async (t) => {
  let runs = 0;
  const answer = await inTransaction(handle.db, async (trx) => {
    runs += 1;
    await sql`insert into tallies values (${runs})`.execute(trx);
    if (runs === 1) throw postgresError('40P01');
    return `run ${runs}`;
  });
  t.equal(answer, 'run 2');
  t.same(await tallied(), [2], 'nothing of the first run was written');
});

t.test(`it gives up after ${TRANSACTION_ATTEMPTS} runs in all, with the last run's error`, async (t) => {
  let runs = 0;
  await t.rejects(
    inTransaction(handle.db, async (trx) => {
      runs += 1;
      await sql`insert into tallies values (${runs})`.execute(trx);
      throw postgresError('40001');
    }),
    { code: '40001', message: 'SQLSTATE 40001' },
  );
  t.equal(runs, TRANSACTION_ATTEMPTS);
  t.same(await tallied(), []);
});

t.test('any other error ends it at once', async (t) => {
  let runs = 0;
  await t.rejects(
    inTransaction(handle.db, async (trx) => {
      runs += 1;
      await sql`insert into tallies values (${runs})`.execute(trx);
      await sql`select 1 / ${0}::int`.execute(trx);
    }),
    /division by zero/,
  );
  t.equal(runs, 1);
  t.same(await tallied(), []);
});

t.test('it runs in READ COMMITTED whatever the server default', async (t) => {
  await sql`alter database ${sql.id(new URL(database.url).pathname.slice(1))} set default_transaction_isolation = 'serializable'`.execute(handle.db);
  const fresh = connectPostgres({ connectionString: database.url, max: 1 });
  t.teardown(() => fresh.close());
  const level = await inTransaction(fresh.db, async (trx) => (await sql<{ level: string }>`select current_setting('transaction_isolation') as level`.execute(trx)).rows[0]?.level);
  t.equal(level, 'read committed');
});
