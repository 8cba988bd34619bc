import { sql } from 'kysely';
import t, { type Test } from 'tap';
import { connectPostgres, type DatabaseHandle } from '../src/db.js';
import { MAX_NAMED_STATEMENTS } from '../src/pg-query.js';
import { makeUnitOfWork } from '../src/repositories/index.js';
import { inTransaction } from '../src/transactions.js';
import { createTestDatabase, insertGarage } from '@garage/postgres/testing';

/** One connection, so that every statement below and the look at `pg_prepared_statements` share it. */
const oneConnection = async (t: Test, options: { namedStatements?: boolean } = {}) => {
  const database = await createTestDatabase('named');
  const handle = connectPostgres({ connectionString: database.url, max: 1, ...options });
  // What the next release's migration does while this one serves: another connection changes the schema.
  const migration = connectPostgres({ connectionString: database.url, max: 1, namedStatements: false });
  t.teardown(async () => {
    await handle.close();
    await migration.close();
    await database.drop();
  });
  return { handle, migration };
};

/** The statements this connection named, apart from this look itself (named too, from its second run). */
const named = async (handle: DatabaseHandle) => {
  const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(handle.db);
  return rows.filter((row) => !row.statement.includes('pg_prepared_statements'));
};

t.test('a statement run a second time is named, and each run binds its own values', async (t) => {
  const { handle } = await oneConnection(t);
  const square = (n: number) => sql<{ square: number }>`select ${n}::int * ${n}::int as square`.execute(handle.db);

  t.same((await square(3)).rows, [{ square: 9 }]);
  t.same(await named(handle), [], 'a statement seen once is sent unnamed');
  t.same((await square(4)).rows, [{ square: 16 }]);
  t.same((await square(5)).rows, [{ square: 25 }]);
  const statements = await named(handle);
  t.equal(statements.length, 1, 'named once, whatever the number of runs');
  t.match(statements[0]?.statement, /select \$1::int \* \$2::int as square/);
});

t.test('failures leave the names usable: a failed parse is parsed again, a failed transaction rolls back', async (t) => {
  const { handle } = await oneConnection(t);
  await sql`create table notes (id int primary key, body text not null)`.execute(handle.db);
  for (let i = 1; i <= 3; i++) {
    await handle.db.transaction().execute(async (tx) => {
      await sql`insert into notes (id, body) values (${i}, ${`note ${i}`})`.execute(tx);
    });
  }
  for (let i = 0; i < 3; i++) {
    await t.rejects(sql`select no_such_column from notes where id = ${i}`.execute(handle.db), /no_such_column/);
  }
  for (let i = 0; i < 2; i++) {
    await t.rejects(
      handle.db.transaction().execute(async (tx) => {
        await sql`insert into notes (id, body) values (${10 + i}, ${'rolled back'})`.execute(tx);
        await sql`select 1 / ${0}::int`.execute(tx);
      }),
      /division by zero/,
    );
  }
  t.same((await sql<{ id: number }>`select id from notes order by id`.execute(handle.db)).rows.map((row) => row.id), [1, 2, 3]);
  const statements = (await named(handle)).map((row) => row.statement);
  t.ok(statements.some((text) => text.startsWith('insert into notes')), 'the repeated insert is named');
  t.notOk(statements.some((text) => text.includes('no_such_column')), 'a statement that never parsed is not');
});

t.test('a connection names at most MAX_NAMED_STATEMENTS statements; the rest still run, unnamed', async (t) => {
  const { handle } = await oneConnection(t);
  for (let i = 0; i < MAX_NAMED_STATEMENTS + 20; i++) {
    for (let run = 0; run < 2; run++) {
      const { rows } = await sql<{ n: number }>`select ${sql.lit(i)}::int + ${run}::int as n`.execute(handle.db);
      t.equal(rows[0]?.n, i + run);
    }
  }
  t.equal((await named(handle)).length, MAX_NAMED_STATEMENTS);
});

t.test('with namedStatements off, nothing is named (a pooler that cannot keep them)', async (t) => {
  const { handle } = await oneConnection(t, { namedStatements: false });
  for (let i = 0; i < 3; i++) await sql`select ${i}::int as n`.execute(handle.db);
  t.same(await named(handle), []);
});

t.test('a named select * outlives a column added by the next release: it is parsed again under a new name', async (t) => {
  const { handle, migration } = await oneConnection(t);
  await sql`create table notes (id int primary key)`.execute(handle.db);
  await sql`insert into notes values (1)`.execute(handle.db);
  const read = () => sql<Record<string, unknown>>`select * from notes where id = ${1}`.execute(handle.db);
  await read();
  t.same((await read()).rows, [{ id: 1 }]);
  t.equal((await named(handle)).filter((row) => row.statement.startsWith('select * from notes')).length, 1, 'named before the change');

  await sql`alter table notes add column body text not null default 'added'`.execute(migration.db);
  t.same((await read()).rows, [{ id: 1, body: 'added' }], 'the next run sees the new column instead of failing');
  t.same((await read()).rows, [{ id: 1, body: 'added' }]);
  await read();
  const renamed = (await named(handle)).filter((row) => row.statement.startsWith('select * from notes'));
  t.equal(renamed.length, 2, 'named again: the stale name stays with the connection, unused');
});

t.test('inside a unit of work, a stale named statement ends the transaction and the work runs again', async (t) => {
  const { handle, migration } = await oneConnection(t);
  const garageId = await insertGarage(handle.db);
  const uow = makeUnitOfWork(handle.db);
  let runs = 0;
  const findTwice = () =>
    uow.run(async (tx) => {
      runs += 1;
      const garage = await tx.garages.findById(garageId);
      return [garage?.id, (await tx.garages.findById(garageId))?.id];
    });
  t.same(await findTwice(), [garageId, garageId]);
  t.ok((await named(handle)).some((row) => row.statement.includes('from "garages"')), 'the read of the garage is named');

  await sql`alter table garages add column added_by_next_release text`.execute(migration.db);
  runs = 0;
  t.same(await findTwice(), [garageId, garageId], 'the work answers as before');
  t.equal(runs, 2, 'its first run ended at the stale statement, the second committed');
});

t.test('a transaction opened outside the unit of work (the delivery queue, erasures) runs again as well', async (t) => {
  const { handle, migration } = await oneConnection(t);
  await sql`create table notes (id int primary key)`.execute(handle.db);
  await sql`insert into notes values (1)`.execute(handle.db);
  let runs = 0;
  const readTwice = () =>
    inTransaction(handle.db, async (trx) => {
      runs += 1;
      const read = () => sql<Record<string, unknown>>`select * from notes where id = ${1}`.execute(trx);
      return [(await read()).rows, (await read()).rows];
    });
  t.same(await readTwice(), [[{ id: 1 }], [{ id: 1 }]]);

  await sql`alter table notes add column body text not null default 'added'`.execute(migration.db);
  runs = 0;
  t.same(await readTwice(), [[{ id: 1, body: 'added' }], [{ id: 1, body: 'added' }]], 'the work answers with the new column');
  t.equal(runs, 2, 'its first run ended at the stale statement, the second committed');
});
