import type { Duplex } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import t, { type Test } from 'tap';
import { connectPostgres, type DatabaseHandle } from '../src/db.js';
import { PipelinedBeginDialect } from '../src/pipelined-begin.js';
import { makeRepositories, makeUnitOfWork } from '../src/repositories/index.js';
import { newGarage } from '@garage/domain/testing';
import { createTestDatabase } from '@garage/postgres/testing';

/** One connection, whose socket writes are recorded: the text of each write, as Postgres receives it. */
const recordedConnection = async (t: Test): Promise<{ handle: DatabaseHandle; writes: string[] }> => {
  const database = await createTestDatabase('pipelined');
  const handle = connectPostgres({ connectionString: database.url, max: 1 });
  t.teardown(async () => {
    await handle.close();
    await database.drop();
  });
  const writes: string[] = [];
  handle.pool?.on('connect', (client) => {
    const stream = client.connection.stream as Duplex & {
      _write: (chunk: Buffer, encoding: string, done: () => void) => void;
      _writev: (chunks: { chunk: Buffer }[], done: () => void) => void;
    };
    const write = stream._write.bind(stream);
    const writev = stream._writev.bind(stream);
    stream._write = (chunk, encoding, done) => {
      writes.push(chunk.toString('latin1'));
      write(chunk, encoding, done);
    };
    stream._writev = (chunks, done) => {
      writes.push(chunks.map(({ chunk }) => chunk.toString('latin1')).join(''));
      writev(chunks, done);
    };
  });
  await sql`select 1`.execute(handle.db);
  writes.length = 0;
  return { handle, writes };
};

t.test("a transaction's BEGIN leaves with its first statement, in one write, and the rest go as before", async (t) => {
  const { handle, writes } = await recordedConnection(t);
  await sql`create table notes (id int primary key)`.execute(handle.db);
  writes.length = 0;
  await handle.db
    .transaction()
    .setIsolationLevel('read committed')
    .execute(async (tx) => {
      await sql`insert into notes values (${1})`.execute(tx);
      await sql`insert into notes values (${2})`.execute(tx);
    });
  t.equal(writes.length, 3, 'three writes: BEGIN with the first insert, the second insert, COMMIT');
  t.match(writes[0], /start transaction isolation level read committed[\s\S]*insert into notes values \(\$1\)/);
  t.match(writes[2], /commit/);
  t.same((await sql<{ n: number }>`select count(*)::int as n from notes`.execute(handle.db)).rows, [{ n: 2 }]);
});

t.test("a unit of work's event leaves with its COMMIT, in one write, and commits with the rest", async (t) => {
  const { handle, writes } = await recordedConnection(t);
  const garage = await newGarage(makeRepositories(handle.db));
  writes.length = 0;
  await makeUnitOfWork(handle.db).run(async (tx) => {
    await tx.garages.addClosure({ garageId: garage.id, from: '2030-01-07', to: '2030-01-07', reason: null });
    await tx.outbox.enqueue({ garageId: garage.id, type: 'lead.created', data: { id: 'l1' } });
  });
  t.equal(writes.length, 2, 'two writes: BEGIN with the closure, the event with COMMIT');
  t.match(writes[1], /insert into webhook_events[\s\S]*commit/);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from webhook_events where garage_id = ${garage.id}`.execute(handle.db);
  t.same(rows, [{ n: 1 }]);
});

t.test('the transaction is one: a failure rolls back what the first statement wrote, and the connection is reused', async (t) => {
  const { handle } = await recordedConnection(t);
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
  t.equal(isolation, 'serializable', 'the isolation level asked for applies to the statement sent behind BEGIN');
});

t.test('a BEGIN that fails fails the commit, whatever the statements behind it did', async (t) => {
  const database = await createTestDatabase('pipelined');
  t.teardown(() => database.drop());
  // A client whose BEGIN is refused, as a lost connection would refuse it.
  class RefusingBegin extends pg.Client {
    override query(...args: any[]): any {
      if (typeof args[0] === 'string' && args[0].startsWith('start transaction')) return Promise.reject(new Error('begin refused'));
      return Reflect.apply(super.query, this, args);
    }
  }
  const pool = new pg.Pool({ Client: RefusingBegin, connectionString: database.url, max: 1 });
  const { Kysely } = await import('kysely');
  const db = new Kysely<any>({ dialect: new PipelinedBeginDialect({ pool }) });
  t.teardown(() => db.destroy());
  await t.rejects(
    db
      .transaction()
      .setIsolationLevel('read committed')
      .execute(async (tx) => (await sql<{ one: number }>`select 1 as one`.execute(tx)).rows),
    /begin refused/,
  );
});
