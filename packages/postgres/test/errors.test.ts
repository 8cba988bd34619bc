import t from 'tap';
import { DomainError, NotFoundError } from '@garage/domain';
import { sql } from 'kysely';
import { connectPostgres } from '../src/db.js';
import { toDomainError } from '../src/errors.js';
import { makeRepositories, makeUnitOfWork } from '../src/repositories/index.js';
import { createTestDatabase } from '@garage/testkit/postgres';

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
    [new Error('timeout exceeded when trying to connect'), 'UNAVAILABLE'],
    [new Error('Connection terminated unexpectedly'), 'UNAVAILABLE'],
    [new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }), 'UNAVAILABLE'],
    [Object.assign(new Error('syntax'), { code: '42601' }), undefined],
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

t.test('an unreachable Postgres (connection refused) is UNAVAILABLE, for repositories and units of work', async (t) => {
  const handle = connectPostgres({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
  t.teardown(() => handle.close());
  await t.rejects(makeRepositories(handle.db).garages.findBySlug('x'), { code: 'UNAVAILABLE' });
  await t.rejects(makeUnitOfWork(handle.db).run((tx) => tx.garages.findBySlug('x')), { code: 'UNAVAILABLE' });
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

  t.test('a connection terminated by the server in the middle of a unit of work is UNAVAILABLE', async (t) => {
    const handle = connectPostgres({ connectionString: database.url, max: 2 });
    t.teardown(() => handle.close());
    const terminateOthers = sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`;
    await t.rejects(
      makeUnitOfWork(handle.db).run(async (tx) => {
        await tx.garages.findBySlug('x');
        await terminateOthers.execute(database.handle.db);
        await tx.garages.findBySlug('y');
      }),
      { code: 'UNAVAILABLE' },
    );
    t.equal(await makeRepositories(handle.db).garages.findBySlug('x'), null, 'the pool recovers by itself');
  });
});
