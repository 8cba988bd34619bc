import t from 'tap';
import { at, bookingBody, buildBookingApp, createBookingGarage, postAppointment } from './appointments-support.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

t.test('Idempotency-Key on POST /api/public/appointments (docs/reference/contract.md §4.1)', async (t) => {
  const { app, admin, db, clock } = await buildBookingApp(t, { retentionIntervalMs: 50 });
  const garage = await createBookingGarage(admin);
  const book = (body: unknown, key: string, apiKey = garage.shop.key) => postAppointment(app, apiKey, body, { 'idempotency-key': key });
  const appointmentsWithRef = async (ref: string) =>
    (await db.handle.db.selectFrom('appointments').select('id').where('external_ref', '=', ref).execute()).map((r) => r.id);

  t.test('a repeat with the same key and body gets the first response again, marked as replayed', async (t) => {
    const body = bookingBody(at('2026-12-01', '09:00'), { externalRef: 'idem-1', durationMinutes: 60 });
    const first = await book(body, 'key-1');
    t.equal(first.statusCode, 201);
    t.notOk(first.headers['idempotent-replayed']);
    const again = await book(body, 'key-1');
    t.equal(again.statusCode, 201);
    t.equal(again.headers['idempotent-replayed'], 'true');
    t.equal(again.body, first.body, 'same bytes, same appointmentId');
    // The same JSON with its keys in another order is the same request.
    const reordered = await book({ durationMinutes: 60, externalRef: 'idem-1', customer: body.customer, startsAt: body.startsAt }, 'key-1');
    t.equal(reordered.statusCode, 201);
    t.equal(reordered.body, first.body);
    t.same(await appointmentsWithRef('idem-1'), [first.json().appointmentId]);
  });

  t.test('the same key with a different body: 422 IDEMPOTENCY_KEY_REUSED, nothing booked', async (t) => {
    await book(bookingBody(at('2026-12-01', '10:00'), { externalRef: 'idem-2' }), 'key-2');
    const other = await book(bookingBody(at('2026-12-01', '10:30'), { externalRef: 'idem-2b' }), 'key-2');
    t.equal(other.statusCode, 422);
    t.same(other.json(), { error: other.json().error, code: 'IDEMPOTENCY_KEY_REUSED' });
    t.same(await appointmentsWithRef('idem-2b'), []);
  });

  t.test('a stored error is replayed too: the first answer stands for the same request', async (t) => {
    const sunday = bookingBody(at('2026-12-06', '10:00'));
    const first = await book(sunday, 'key-3');
    t.equal(first.statusCode, 409);
    t.equal(first.json().code, 'DATES_UNAVAILABLE');
    const again = await book(sunday, 'key-3');
    t.equal(again.statusCode, 409);
    t.equal(again.headers['idempotent-replayed'], 'true');
    t.equal(again.body, first.body);
  });

  t.test('keys are scoped to the integration', async (t) => {
    const body = bookingBody(at('2026-12-01', '11:00'));
    const shop = await book(body, 'shared-key');
    const partner = await book(body, 'shared-key', garage.partner.key);
    t.equal(shop.statusCode, 201);
    t.equal(partner.statusCode, 201);
    t.notOk(partner.headers['idempotent-replayed']);
    t.not(partner.json().appointmentId, shop.json().appointmentId);
  });

  t.test('the key must be 1 to 255 characters, else 400', async (t) => {
    for (const key of ['', 'k'.repeat(256)]) {
      const res = await book(bookingBody(at('2026-12-01', '14:00')), key);
      t.equal(res.statusCode, 400, `length ${key.length}`);
      t.match(res.json(), { code: 'VALIDATION_FAILED', details: [{ path: '/idempotency-key' }] });
    }
    t.equal((await book(bookingBody(at('2026-12-01', '14:00')), 'k'.repeat(255))).statusCode, 201);
  });

  t.test('while the first request runs: 409 IDEMPOTENCY_IN_PROGRESS; a 5xx is not stored, so a retry runs again', async (t) => {
    const body = bookingBody(at('2026-12-02', '09:00'), { externalRef: 'idem-inflight' });
    const pool = db.handle.pool;
    if (!pool) throw new Error('the test database is Postgres');
    const waitingBackend = async () => {
      for (let i = 0; i < 200; i += 1) {
        const { rows } = await pool.query<{ pid: number }>(
          `select pid from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and query ~ '^[[:space:]]*select book_if_room\\('`,
        );
        if (rows[0]) return rows[0].pid;
        await sleep(25);
      }
      throw new Error('the first request never reached the appointments table');
    };

    // Hold the appointments table so that the first request stops at its booking's write (its insert), in flight, with
    // its key claimed.
    const holder = await pool.connect();
    t.teardown(() => holder.release());
    await holder.query('begin');
    await holder.query('lock table appointments in exclusive mode');
    const first = book(body, 'key-inflight');
    const pid = await waitingBackend();

    const concurrent = await book(body, 'key-inflight');
    t.equal(concurrent.statusCode, 409);
    t.same(concurrent.json(), { error: concurrent.json().error, code: 'IDEMPOTENCY_IN_PROGRESS' });
    t.equal((await book(bookingBody(at('2026-12-02', '10:00')), 'key-inflight')).statusCode, 422, 'another body: reuse');

    // The database drops the first request's connection: it answers 503, and its key is released.
    await holder.query('select pg_terminate_backend($1)', [pid]);
    const failed = await first;
    t.equal(failed.statusCode, 503);
    t.equal(failed.json().code, 'UNAVAILABLE');
    await holder.query('commit');

    const retry = await book(body, 'key-inflight');
    t.equal(retry.statusCode, 201, 'the 503 was not stored: the retry ran');
    t.notOk(retry.headers['idempotent-replayed']);
    const replay = await book(body, 'key-inflight');
    t.equal(replay.headers['idempotent-replayed'], 'true');
    t.equal(replay.json().appointmentId, retry.json().appointmentId);
    t.same(await appointmentsWithRef('idem-inflight'), [retry.json().appointmentId]);
  });

  t.test('keys are forgotten after 24 hours and purged by the running app', async (t) => {
    const count = async () =>
      Number((await db.handle.db.selectFrom('idempotency_keys').select(db.handle.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    t.ok((await count()) > 0);
    clock.set('2026-12-01T08:00:00Z');
    for (let i = 0; i < 200 && (await count()) > 0; i += 1) await sleep(25);
    t.equal(await count(), 0, 'every record was older than 24 hours');
    // The key is free again, even for another request.
    const reused = await book(bookingBody(at('2026-12-02', '16:00'), { externalRef: 'idem-after-purge' }), 'key-1');
    t.equal(reused.statusCode, 201);
    t.notOk(reused.headers['idempotent-replayed']);
  });
});
