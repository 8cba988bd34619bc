import { createTestDatabase } from '@garage/postgres/testing';
import t from 'tap';
import { adminFor, bookingBody, createBookingGarage, ENCRYPTION_KEY } from '@garage/composition/testing';
import { eventually, http, startApi } from './support/processes.js';

const addDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * docs/reference/contract.md §4.1: a retry with the same Idempotency-Key never books twice, even when the process that handled the
 * first request dies at the worst moment: after the booking was written, before its record was. The booking and the
 * record commit in one transaction, so a process killed in between leaves neither, and the retry books exactly once.
 */
t.test('a process killed while recording an Idempotency-Key leaves no booking; the retry books exactly once', async (t) => {
  const db = await createTestDatabase('crash');
  t.teardown(() => db.drop());
  const garage = await createBookingGarage(adminFor(db.handle.db));
  const env = { DATABASE_URL: db.url, ENCRYPTION_KEY };
  const pool = db.handle.pool;
  if (!pool) throw new Error('a Postgres test database has a pool');
  const query = async (text: string) => (await pool.query(text)).rows as Record<string, unknown>[];
  const appointments = async () => Number((await query('select count(*) as n from appointments'))[0]?.n);

  const first = await startApi(t, env);
  const base = `http://127.0.0.1:${first.port}/api/public`;
  const headers = { 'x-api-key': garage.shop.key, 'content-type': 'application/json', 'idempotency-key': 'crash-1' };
  const slots = await http(`${base}/appointments/availability?from=${addDays(2)}&to=${addDays(12)}`, { headers: { 'x-api-key': garage.shop.key } });
  const startsAt = slots.json<{ data: { startsAt: string }[] }>().data[0]?.startsAt;
  if (!startsAt) throw new Error(`no available slot: ${slots.body}`);
  const body = JSON.stringify(bookingBody(startsAt));

  // Completing the record now stalls, holding the process exactly between the booking and its record.
  await query('create function stall() returns trigger language plpgsql as $$ begin perform pg_sleep(60); return new; end $$');
  await query("create trigger stall before update on idempotency_keys for each row when (new.state = 'completed') execute function stall()");
  const sleeping = "select pid from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep'";

  const pending = http(`${base}/appointments`, { method: 'POST', headers, body, timeoutMs: 60_000 }).catch((err: Error) => err);
  t.ok(await eventually(async () => (await query(sleeping)).length > 0), 'the request reached the record');
  await first.stop('SIGKILL');
  t.type(await pending, Error, 'the client saw the connection drop, as it would, and will retry');
  // The server notices a dead client at its next write; ending its session now is the same outcome, sooner.
  await query(`select pg_terminate_backend(pid) from (${sleeping}) as stalled`);
  await query('drop trigger stall on idempotency_keys');
  t.equal(await appointments(), 0, 'nothing was booked: the booking rolled back with its record');

  // The claim of the dead process expires after its lease (a minute); the test ends it now instead of waiting.
  await query("update idempotency_keys set locked_until = now() - interval '1 second'");
  const second = await startApi(t, env);
  const retryUrl = `http://127.0.0.1:${second.port}/api/public/appointments`;
  const retry = await http(retryUrl, { method: 'POST', headers, body });
  t.equal(retry.status, 201, retry.body);
  const replay = await http(retryUrl, { method: 'POST', headers, body });
  t.equal(replay.status, 201);
  t.equal(replay.headers['idempotent-replayed'], 'true');
  t.equal(replay.body, retry.body, 'the retry of the retry is the stored response');
  t.equal(await appointments(), 1, 'exactly one booking');
});
