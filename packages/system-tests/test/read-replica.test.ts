import t from 'tap';
import { connectPostgres, migrateToLatest } from '@garage/postgres';
import { adminFor, bookingBody, createBookingGarage, ENCRYPTION_KEY, product, seedGarage } from '@garage/composition/testing';
import { eventually, http, privatePostgres, startApi } from './support/processes.js';

/**
 * DATABASE_READ_URL (docs/reference/contract.md §6): with a real streaming replica, lists and availability read from it, so they
 * show a write only once the replica has replayed it, while bookings go to the primary and stay exact.
 */
t.test('lists read the replica, bookings the primary', async (t) => {
  const primary = await privatePostgres(t);
  const database = connectPostgres({ connectionString: primary.url });
  t.teardown(() => database.close());
  await migrateToLatest(database.db);
  const admin = adminFor(database.db);
  const garage = await seedGarage(admin);
  const booking = await createBookingGarage(admin, { capacity: 1 });
  const replica = await primary.replica();
  const replicaHandle = connectPostgres({ connectionString: replica.url, max: 1 });
  t.teardown(() => replicaHandle.close());
  const onReplica = replicaHandle.pool as NonNullable<typeof replicaHandle.pool>;

  const api = await startApi(t, { DATABASE_URL: primary.url, DATABASE_READ_URL: replica.url, ENCRYPTION_KEY, MIGRATE_ON_START: 'false' });
  const base = `http://127.0.0.1:${api.port}`;
  const names = async () =>
    (await http(`${base}/api/public/products?limit=500`, { headers: { 'x-api-key': garage.keys.all } })).json<{ data: { name: string }[] }>().data.map((p) => p.name);
  t.ok(await eventually(async () => (await names()).length === 3), 'the replica has caught up with the seed');
  // A slot of the coming days, as a connector finds one: the API process runs on the real clock.
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const slots = await http(`${base}/api/public/appointments/availability?from=${day(2)}&to=${day(12)}`, { headers: { 'x-api-key': booking.shop.key } });
  const startsAt = slots.json<{ data: { startsAt: string }[] }>().data[0]?.startsAt;
  if (!startsAt) throw new Error(`no available slot: ${slots.body}`);

  await onReplica.query('select pg_wal_replay_pause()');
  const paused = async () => (await onReplica.query(`select pg_get_wal_replay_pause_state() = 'paused' as ok`)).rows[0]?.ok === true;
  t.ok(await eventually(paused), 'replay is paused');
  await admin.importProducts(garage.slug, [product('NEW-1', { name: 'Written on the primary' })]);
  // The replica has received the write (its WAL is there), and holds it unreplayed.
  const onPrimary = database.pool as NonNullable<typeof database.pool>;
  const [written] = (await onPrimary.query(`select pg_current_wal_lsn()::text as lsn`)).rows as { lsn: string }[];
  const received = async () =>
    (await onReplica.query(`select pg_last_wal_receive_lsn() >= $1::pg_lsn as ok`, [written?.lsn])).rows[0]?.ok === true;
  t.ok(await eventually(received), 'the replica received the write');
  t.notOk((await names()).includes('Written on the primary'), 'the list reads the paused replica: the write is not there yet');

  const first = await http(`${base}/api/public/appointments`, {
    method: 'POST',
    headers: { 'x-api-key': booking.shop.key, 'content-type': 'application/json' },
    body: JSON.stringify(bookingBody(startsAt)),
  });
  const second = await http(`${base}/api/public/appointments`, {
    method: 'POST',
    headers: { 'x-api-key': booking.partner.key, 'content-type': 'application/json' },
    body: JSON.stringify(bookingBody(startsAt)),
  });
  t.same([first.status, second.status], [201, 409], 'bookings are checked on the primary: capacity 1, one wins, while the replica lags');
  t.equal(second.json().code, 'SLOT_FULL');

  await onReplica.query('select pg_wal_replay_resume()');
  t.ok(await eventually(async () => (await names()).includes('Written on the primary')), 'once replay resumes, the list shows it');
});
