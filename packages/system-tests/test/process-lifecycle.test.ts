import { connect } from 'node:net';
import t from 'tap';
import { connectPostgres, migrateToLatest } from '@garage/postgres';
import { adminFor, ENCRYPTION_KEY, seedGarage } from '@garage/composition/testing';
import { eventually, http, privatePostgres, startApi } from './support/processes.js';

/**
 * One API process as an operator runs it (`node dist/main.js`), on a Postgres cluster of the test's own: the
 * database crashes and comes back while the process runs, then the process is stopped with a request in flight.
 */

/** "Within a few seconds" (docs/reference/contract.md §6): an answer that takes longer fails the test as a hang. */
const FEW_SECONDS = 5000;

/** Resolves with the error code of a TCP connection attempt, or 'connected'. */
const tryConnect = (port: number): Promise<string> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });

t.test('a running instance', async (t) => {
  const pg = await privatePostgres(t);
  const database = connectPostgres({ connectionString: pg.url });
  t.teardown(() => database.close());
  await migrateToLatest(database.db);
  const garage = await seedGarage(adminFor(database.db));

  const api = await startApi(t, { DATABASE_URL: pg.url, ENCRYPTION_KEY, MIGRATE_ON_START: 'false' });
  const base = `http://127.0.0.1:${api.port}`;
  // A query string never asked before: no instance-level page cache can answer it, the database must.
  let asked = 0;
  const fresh = () => `/api/public/products?sku=never-asked-${(asked += 1)}`;
  const products = (key = garage.keys.all) => http(`${base}${fresh()}`, { headers: { 'x-api-key': key }, timeoutMs: FEW_SECONDS });

  t.test('Postgres crashes: 503 UNAVAILABLE within seconds, then recovery without a restart', async (t) => {
    t.equal((await products()).status, 200);
    t.equal((await http(`${base}/health/ready`)).status, 200);

    await pg.stop();
    for (const [what, request] of [
      ['a key seen before (cached)', () => products()],
      ['a key never seen: unknown, not 401', () => products('0123456789abcdef0123456789abcdef')],
      ['fleet by slug', () => http(`${base}/api/public/fleet?garageSlug=${garage.slug}`, { timeoutMs: FEW_SECONDS })],
    ] as const) {
      const res = await request();
      t.equal(res.status, 503, what);
      t.same(Object.keys(res.json()).sort(), ['code', 'error'], `${what}: the contract's body`);
      t.equal(res.json().code, 'UNAVAILABLE');
    }
    // One probe answers readiness for a second: the outage shows at the latest one probe later.
    t.ok(await eventually(async () => (await http(`${base}/health/ready`, { timeoutMs: FEW_SECONDS })).status === 503), 'readiness');
    const ready = await http(`${base}/health/ready`, { timeoutMs: FEW_SECONDS });
    t.equal(ready.status, 503, 'readiness');
    t.same(ready.json(), { status: 'unavailable', checks: { postgres: 'down', redis: 'absent', draining: false } });
    t.equal((await http(`${base}/health/live`)).status, 200, 'still alive: an orchestrator must not restart it');

    await pg.start();
    t.ok(await eventually(async () => (await http(`${base}/health/ready`)).status === 200, { attempts: 100 }), 'ready again by itself');
    t.equal((await products()).status, 200, 'serving again');
    t.equal(api.child.exitCode, null, 'the same process throughout');
  });

  t.test('SIGTERM: the slow request in flight is answered, new connections are refused, then exit 0', async (t) => {
    // A slow request: the catalog is locked by a transaction of the test, so the list waits for it.
    const pool = database.pool;
    if (!pool) throw new Error('a Postgres handle without a pool');
    const locker = await pool.connect();
    t.teardown(() => locker.release());
    await locker.query('begin');
    await locker.query('lock table products in access exclusive mode');
    // Keep-alive, as a connector's HTTP client would: the drain must close the connection itself.
    const inFlight = http(`${base}${fresh()}`, { headers: { 'x-api-key': garage.keys.all, connection: 'keep-alive' } });
    const waiting = await eventually(async () => {
      const { rows } = await pool.query("select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%products%'");
      return rows.length > 0;
    });
    t.ok(waiting, 'the request is in flight, waiting on the lock');

    api.child.kill('SIGTERM');
    t.ok(await eventually(async () => api.lines.some((l) => l.msg === 'closing')), 'the signal was received');
    t.ok(await eventually(async () => (await tryConnect(api.port)) === 'ECONNREFUSED'), 'new connections are refused');
    t.equal(api.child.exitCode, null, 'still running while the request is in flight');

    await locker.query('commit');
    const res = await inFlight;
    t.equal(res.status, 200, 'the request in flight was answered');
    t.same(res.json(), { data: [], nextCursor: null }, 'with its body');
    t.equal(res.headers.connection, 'close', 'its keep-alive connection is not kept: nothing holds the close');
    t.equal(await api.exited, 0, 'exit code 0');
    t.ok(api.lines.some((l) => l.msg === 'closed'), 'after closing everything it held');
  });
});

t.test('SIGTERM with SHUTDOWN_DELAY_MS: not ready at once, still serving for the delay, then a clean exit', async (t) => {
  const pg = await privatePostgres(t);
  const database = connectPostgres({ connectionString: pg.url });
  t.teardown(() => database.close());
  await migrateToLatest(database.db);
  const garage = await seedGarage(adminFor(database.db));
  const api = await startApi(t, { DATABASE_URL: pg.url, ENCRYPTION_KEY, MIGRATE_ON_START: 'false', SHUTDOWN_DELAY_MS: '1500' });
  const base = `http://127.0.0.1:${api.port}`;
  t.equal((await http(`${base}/health/ready`)).status, 200);

  const signalled = Date.now();
  api.child.kill('SIGTERM');
  t.ok(await eventually(async () => api.lines.some((l) => l.msg === 'draining: not ready, still serving')), 'the signal was received');
  const ready = await http(`${base}/health/ready`);
  t.equal(ready.status, 503, 'readiness turns 503 at once');
  t.same(ready.json(), { status: 'unavailable', checks: { postgres: 'up', redis: 'absent', draining: true } });
  const served = await http(`${base}/api/public/products`, { headers: { 'x-api-key': garage.keys.all } });
  t.equal(served.status, 200, 'requests are still served during the delay');
  t.equal((await http(`${base}/health/live`)).status, 200, 'and the process is alive');
  t.equal(await api.exited, 0, 'exit code 0');
  t.ok(Date.now() - signalled >= 1500, `the listener closed after the delay (${Date.now() - signalled} ms)`);
});
