import { sql } from 'kysely';
import t, { type Test } from 'tap';
import { connectPostgres, type DatabaseHandle } from '../src/db.js';
import { MAX_NAMED_STATEMENTS } from '../src/prepared-statements.js';
import { createTestDatabase } from '@garage/postgres/testing';

/** One connection, so that every statement below and the look at `pg_prepared_statements` share it. */
const oneConnection = async (t: Test): Promise<DatabaseHandle> => {
  const database = await createTestDatabase('prepared');
  const handle = connectPostgres({ connectionString: database.url, max: 1 });
  t.teardown(async () => {
    await handle.close();
    await database.drop();
  });
  return handle;
};

/** The statements this client named, apart from this look itself (named too, from its second run). */
const prepared = async (handle: DatabaseHandle) => {
  const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(handle.db);
  return rows.filter((row) => row.name.startsWith('garage_') && !row.statement.includes('pg_prepared_statements'));
};

t.test('a statement run a second time is named, and runs from then on without being parsed again', async (t) => {
  const handle = await oneConnection(t);
  const square = (n: number) => sql<{ square: number }>`select ${n}::int * ${n}::int as square`.execute(handle.db);

  t.same((await square(3)).rows, [{ square: 9 }]);
  t.same(
    (await prepared(handle)).map((row) => row.statement),
    [],
    'a statement seen once is sent unnamed',
  );
  t.same((await square(4)).rows, [{ square: 16 }]);
  t.same((await square(5)).rows, [{ square: 25 }], 'each run binds its own values');
  const named = await prepared(handle);
  t.equal(named.length, 1, 'named once, whatever the number of runs');
  t.match(named[0]?.statement, /select \$1::int \* \$2::int as square/);
});

t.test('transactions, failures and the other call forms behave as before', async (t) => {
  const handle = await oneConnection(t);
  await sql`create table notes (id int primary key, body text not null)`.execute(handle.db);
  for (let i = 1; i <= 3; i++) {
    await handle.db.transaction().execute(async (tx) => {
      await tx.insertInto('notes' as never).values({ id: i, body: `note ${i}` } as never).execute();
    });
  }
  // A statement that fails while being parsed is parsed again on its next run, not taken for a named one.
  for (let i = 0; i < 3; i++) {
    await t.rejects(sql`select no_such_column from notes where id = ${i}`.execute(handle.db), /no_such_column/);
  }
  // A failure at execution, inside a transaction, rolls it back and leaves the named statements usable.
  for (let i = 0; i < 2; i++) {
    await t.rejects(
      handle.db.transaction().execute(async (tx) => {
        await tx.insertInto('notes' as never).values({ id: 10 + i, body: 'rolled back' } as never).execute();
        await sql`select 1 / ${0}::int`.execute(tx);
      }),
      /division by zero/,
    );
  }
  const { rows } = await sql<{ id: number }>`select id from notes order by id`.execute(handle.db);
  t.same(rows.map((row) => row.id), [1, 2, 3]);
  // What kysely does not send as (text, values) goes through unchanged: a text alone, as readiness probes send it.
  await handle.ping();
  await handle.ping();
  const statements = (await prepared(handle)).map((row) => row.statement);
  t.notOk(statements.includes('select 1'), 'a plain text query is not named');
  t.ok(statements.some((text) => /^insert into "notes"/.test(text)), 'the repeated insert is named');
  t.ok(statements.includes('begin') && statements.includes('commit'), 'so are the transaction statements');
});

t.test('a connection names at most MAX_NAMED_STATEMENTS statements; the rest still run, unnamed', async (t) => {
  const handle = await oneConnection(t);
  const distinct = MAX_NAMED_STATEMENTS + 20;
  for (let i = 0; i < distinct; i++) {
    for (let run = 0; run < 2; run++) {
      const { rows } = await sql<{ n: number }>`select ${sql.lit(i)}::int + ${run}::int as n`.execute(handle.db);
      t.equal(rows[0]?.n, i + run);
    }
  }
  t.equal((await prepared(handle)).length, MAX_NAMED_STATEMENTS);
});
