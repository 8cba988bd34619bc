import t from 'tap';
import { DomainError, NotFoundError } from '@garage/domain';
import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Test } from 'tap';
import { connectPostgres, type DatabaseHandle } from '../src/db.js';
import { isTransactionConflict, mayRunAgain, toDomainError, withErrorMapping } from '../src/errors.js';
import { ConnectionFailure, type ConnectionErrorSource } from '../src/connection-failures.js';
import { makeRepositories, makeUnitOfWork } from '../src/repositories/index.js';
import { backends, createTestDatabase } from '@garage/postgres/testing';

const codeOf = (err: unknown) => (err instanceof DomainError ? err.code : undefined);

t.test('Postgres error codes and connection failures map to domain errors', async (t) => {
  const cases: [unknown, string | undefined][] = [
    [Object.assign(new Error('dup'), { code: '23505', constraint: 'garages_slug_key' }), 'DUPLICATE'],
    [Object.assign(new Error('fk'), { code: '23503' }), 'INVALID_REFERENCE'],
    [Object.assign(new Error('gone'), { code: '57P01' }), 'UNAVAILABLE'],
    [Object.assign(new Error('starting'), { code: '57P03' }), 'UNAVAILABLE'],
    [Object.assign(new Error('link'), { code: '08006' }), 'UNAVAILABLE'],
    [Object.assign(new Error('reset'), { code: 'ECONNRESET' }), 'UNAVAILABLE'],
    [new AggregateError([Object.assign(new Error('v6'), { code: 'ECONNREFUSED' })], 'connect'), 'UNAVAILABLE'],
    [new ConnectionFailure(new Error('timeout exceeded when trying to connect')), 'UNAVAILABLE'],
    [new Error('wrapped', { cause: new ConnectionFailure(new Error('lost')) }), 'UNAVAILABLE'],
    // A message is no classification: only where pg raised it (a ConnectionFailure) says the connection failed.
    [new Error('Connection terminated unexpectedly'), undefined],
    [new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }), 'UNAVAILABLE'],
    [Object.assign(new Error('nul'), { code: '22021' }), 'VALIDATION_FAILED'],
    [Object.assign(new Error('timestamp out of range'), { code: '22008' }), 'VALIDATION_FAILED'],
    [Object.assign(new Error('numeric out of range'), { code: '22003' }), 'VALIDATION_FAILED'],
    [Object.assign(new Error('bad uuid'), { code: '22P02' }), 'VALIDATION_FAILED'],
    [Object.assign(new Error('too long'), { code: '22001' }), 'VALIDATION_FAILED'],
    [Object.assign(new Error('not null'), { code: '23502' }), 'VALIDATION_FAILED'],
    [Object.assign(new Error('check'), { code: '23514' }), 'VALIDATION_FAILED'],
    [Object.assign(new Error('integrity'), { code: '23000' }), 'VALIDATION_FAILED'],
    [Object.assign(new Error('exclusion'), { code: '23P01' }), 'DUPLICATE'],
    [Object.assign(new Error('restrict'), { code: '23001' }), 'INVALID_REFERENCE'],
    [Object.assign(new Error('syntax'), { code: '42601' }), undefined],
    [Object.assign(new Error('not a SQLSTATE'), { code: '22' }), undefined],
    [new TypeError('a bug'), undefined],
  ];
  for (const [err, code] of cases) t.equal(codeOf(toDomainError(err)), code, (err as Error).message);
});

t.test('a mapped error names the conflict without internals, keeps the driver error as cause', async (t) => {
  const driverError = Object.assign(new Error('duplicate key value violates unique constraint "x_key"'), {
    code: '23505',
    constraint: 'x_key',
  });
  const mapped = toDomainError(driverError) as DomainError & { cause: unknown };
  t.equal(mapped.message, 'Already exists');
  t.equal(mapped.cause, driverError);
  const bug = new TypeError('a bug');
  t.equal(toDomainError(bug), bug, 'anything else passes through unchanged');
  const domain = new NotFoundError();
  t.equal(toDomainError(domain), domain);
});

/**
 * Whatever the database refuses as data becomes a 400 code, never a 500: driven through real repositories and units
 * of work, on Postgres and on PGlite, with values the layers above would normally have refused first.
 */
const refusedData = async (t: Test, db: DatabaseHandle['db']) => {
  const repos = makeRepositories(db);
  const uow = makeUnitOfWork(db);
  // A statement run through the same mapping as every repository method.
  const { run } = withErrorMapping({ run: (statement: RawBuilder<unknown>) => statement.execute(db) });
  await t.rejects(repos.garages.findBySlug('a\u0000b'), { code: 'VALIDATION_FAILED' }, 'NUL in text (22021)');
  await t.rejects(
    repos.products.list({ garageId: randomUUID(), limit: 10, after: null, updatedSince: new Date(-8.64e15), sku: null, includeInactive: true }),
    { code: 'VALIDATION_FAILED' },
    'a time before 4713 BC (22008)',
  );
  await t.rejects(uow.run((tx) => tx.garages.findBySlug('\u0000')), { code: 'VALIDATION_FAILED' }, 'inside a unit of work too');
  await t.rejects(run(sql`select 'not-a-uuid'::uuid`), { code: 'VALIDATION_FAILED' }, 'malformed value (22P02)');
  await t.rejects(run(sql`select 1 / 0`), { code: 'VALIDATION_FAILED' }, 'division by zero (22012)');
  await t.rejects(run(sql`select 99999999999::int4`), { code: 'VALIDATION_FAILED' }, 'integer out of range (22003)');
  await t.rejects(
    run(sql`insert into garages (slug, name) values (null, 'x')`),
    { code: 'VALIDATION_FAILED' },
    'not-null violation (23502)',
  );
  await t.rejects(
    run(sql`insert into leads (garage_id, vehicle_id, name, consent) values (${randomUUID()}, ${randomUUID()}, 'x', true)`),
    { code: 'INVALID_REFERENCE' },
    'foreign-key violation (23503)',
  );
};

t.test('data the database refuses is VALIDATION_FAILED / INVALID_REFERENCE: Postgres', async (t) => {
  const database = await createTestDatabase('pgdata');
  t.teardown(() => database.drop());
  await refusedData(t, database.handle.db);
});

t.test('data the database refuses is VALIDATION_FAILED / INVALID_REFERENCE: PGlite', async (t) => {
  const pglite = backends.find((backend) => backend.name === 'pglite');
  if (!pglite) throw new Error('no PGlite backend');
  const { handle, drop } = await pglite.open();
  t.teardown(drop);
  await refusedData(t, handle.db);
});

t.test('an unreachable Postgres (connection refused) is UNAVAILABLE, for repositories and units of work', async (t) => {
  const handle = connectPostgres({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
  t.teardown(() => handle.close());
  await t.rejects(makeRepositories(handle.db).garages.findBySlug('x'), { code: 'UNAVAILABLE' });
  await t.rejects(makeUnitOfWork(handle.db).run((tx) => tx.garages.findBySlug('x')), { code: 'UNAVAILABLE' });
  const failure: unknown = await makeRepositories(handle.db).garages.findBySlug('x').catch((err: unknown) => err);
  t.match(failure, { code: 'UNAVAILABLE', cause: { code: 'ECONNREFUSED' } }, "the cause kept for the log is pg's own error");
});

t.test('real Postgres failures', async (t) => {
  const database = await createTestDatabase('pgerr');
  t.teardown(() => database.drop());

  t.test('an exhausted pool that cannot hand out a connection in time is UNAVAILABLE', async (t) => {
    const handle = connectPostgres({ connectionString: database.url, max: 1, connectionTimeoutMillis: 200 });
    t.teardown(() => handle.close());
    const held = await handle.pool!.connect();
    t.teardown(() => held.release());
    await t.rejects(makeRepositories(handle.db).garages.findBySlug('x'), { code: 'UNAVAILABLE' });
  });

  const terminateOthers = sql`select pg_terminate_backend(pid) from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()`;

  t.test('a connection terminated by the server in the middle of a unit of work is UNAVAILABLE, and reported', async (t) => {
    const handle = connectPostgres({ connectionString: database.url, max: 2 });
    t.teardown(() => handle.close());
    const reported: ConnectionErrorSource[] = [];
    handle.onConnectionError((_error, source) => reported.push(source));
    await t.rejects(
      makeUnitOfWork(handle.db).run(async (tx) => {
        await tx.garages.findBySlug('x');
        await terminateOthers.execute(database.handle.db);
        await tx.garages.findBySlug('y');
      }),
      { code: 'UNAVAILABLE' },
    );
    t.same(reported, ['in_use'], 'the lost connection is reported once, as one in use');
    t.equal(await makeRepositories(handle.db).garages.findBySlug('x'), null, 'the pool recovers by itself');
  });

  t.test('an idle pooled connection that the server ends is reported, and the pool goes on', async (t) => {
    const handle = connectPostgres({ connectionString: database.url, max: 1 });
    t.teardown(() => handle.close());
    await makeRepositories(handle.db).garages.findBySlug('x');
    const reported = new Promise<ConnectionErrorSource>((resolve) => handle.onConnectionError((_error, source) => resolve(source)));
    await terminateOthers.execute(database.handle.db);
    t.equal(await reported, 'idle');
    t.equal(await makeRepositories(handle.db).garages.findBySlug('x'), null);
  });

  t.test('a failure that is a bug, not the connection, stays what it is (a 500)', async (t) => {
    const handle = connectPostgres({ connectionString: database.url, max: 1 });
    t.teardown(() => handle.close());
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const failure = await sql`select ${circular}::jsonb`.execute(handle.db).catch((err: unknown) => err);
    t.type(failure, TypeError);
    t.equal(codeOf(toDomainError(failure)), undefined);
  });
});

t.test('a deadlock victim is run again by the unit of work; other failures are not', async (t) => {
  t.ok(isTransactionConflict({ code: '40P01' }), 'deadlock_detected');
  t.ok(isTransactionConflict({ code: '40001' }), 'serialization_failure');
  t.notOk(isTransactionConflict({ code: '23505' }));
  t.ok(mayRunAgain({ code: '40P01' }), 'a conflict may run again');
  t.ok(mayRunAgain(new Error('wrapped', { cause: { code: '0A000', routine: 'RevalidateCachedQuery' } })), 'so may a stale named statement, wrapped or not');
  t.notOk(mayRunAgain({ code: '0A000', routine: 'exec_bind_message' }), 'another unsupported feature may not');
  const database = await createTestDatabase('pgconflict');
  t.teardown(() => database.drop());
  const uow = makeUnitOfWork(database.handle.db);
  let runs = 0;
  const answer = await uow.run(async () => {
    runs += 1;
    if (runs === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    return 'committed';
  });
  t.equal(answer, 'committed');
  t.equal(runs, 2, 'once more after the conflict');
  let failing = 0;
  await t.rejects(uow.run(async () => {
    failing += 1;
    throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
  }));
  t.equal(failing, 3, 'a bounded number of times');
});
