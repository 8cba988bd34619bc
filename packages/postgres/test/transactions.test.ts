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

t.test("a booking's write on the pool, a transaction of its own, runs again after a deadlock", async (t) => {
  const { makeRepositories } = await import('../src/repositories/index.js');
  const { bookings } = makeRepositories(handle.db);
  // The statement itself is the adapter's (booking-contract.test.ts); here its function is swapped for one that
  // deadlocks on its first call, so that only the pool writer's answer to the abort is under test.
  // A sequence counts the runs: a rolled-back run keeps the number it took.
  await sql`create table booking_calls (n int)`.execute(handle.db);
  await sql`create sequence booking_runs`.execute(handle.db);
  t.teardown(async () => {
    await sql`drop table booking_calls`.execute(handle.db);
    await sql`drop sequence booking_runs`.execute(handle.db);
  });
  const request = {
    lock: { garageId: '11111111-1111-4111-8111-111111111111', localDate: '2030-01-07' },
    capacity: 1,
    slotMinutes: 30,
    slots: [new Date('2030-01-07T10:00:00Z')],
    appointment: {
      id: '22222222-2222-4222-8222-222222222222',
      garageId: '11111111-1111-4111-8111-111111111111',
      integrationId: '33333333-3333-4333-8333-333333333333',
      startsAt: new Date('2030-01-07T10:00:00Z'),
      endsAt: new Date('2030-01-07T10:30:00Z'),
      durationMinutes: 30,
      customer: { name: 'Jeanne Martin', email: null, phone: null },
      vehicle: null,
      productIds: [],
      notes: null,
      externalRef: null,
      status: 'booked' as const,
      createdAt: new Date(),
      updatedAt: new Date(),
      cancelledAt: null,
      cancellationReason: null,
    },
    event: { garageId: '11111111-1111-4111-8111-111111111111', type: 'appointment.created' as const, data: {} },
  };
  const original = (
    await sql<{ definition: string }>`select pg_get_functiondef('book_if_room'::regproc) as definition`.execute(handle.db)
  ).rows[0]?.definition;
  t.teardown(async () => {
    if (original) await sql.raw(original).execute(handle.db);
  });
  const { args } = (
    await sql<{ args: string }>`select pg_get_function_arguments('book_if_room'::regproc) as args`.execute(handle.db)
  ).rows[0] ?? { args: '' };
  await sql
    .raw(
      `create or replace function book_if_room(${args}) returns boolean language plpgsql volatile as $$
       begin
         insert into booking_calls values (nextval('booking_runs'));
         if currval('booking_runs') = 1 then
           raise exception 'deadlock detected' using errcode = '40P01';
         end if;
         return true;
       end $$`,
    )
    .execute(handle.db);
  t.equal(await bookings.bookIfRoom(request), true, 'the second run answers');
  t.same((await sql<{ n: number }>`select n from booking_calls`.execute(handle.db)).rows, [{ n: 2 }], 'two runs, and the first wrote nothing');
});
