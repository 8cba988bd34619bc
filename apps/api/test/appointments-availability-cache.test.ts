import t from 'tap';
import { buildApp, loadConfig, type App } from '../src/index.js';
import {
  at,
  bookingBody,
  buildBookingApp,
  createBookingGarage,
  getAvailability,
  postAppointment,
  TUESDAY,
} from './appointments-support.js';
import { checkResponsesAgainstDocument, ENCRYPTION_KEY } from './helper.js';

/**
 * Availability keeps each day's starts per instance until the day's version moves (docs/operators/performance.md,
 * "Availability"): over HTTP and real Postgres, every change is seen by the next read, on every instance.
 */

const WEDNESDAY = '2026-12-02';

/** Remaining places by local start time on the days asked for. */
const remaining = async (app: App, key: string, from: string, to = from, duration = 30) => {
  const res = await getAvailability(app, key, `from=${from}&to=${to}&durationMinutes=${duration}`);
  if (res.statusCode !== 200) throw new Error(`availability answered ${res.statusCode}: ${res.body}`);
  return Object.fromEntries((res.json().data as { startsAt: string; remaining: number }[]).map((s) => [s.startsAt, s.remaining]));
};

const post = async (app: App, key: string, url: string, body: unknown = {}) => {
  const res = await app.inject({ method: 'POST', url: `/api/public/appointments${url}`, headers: { 'x-api-key': key }, payload: body as Record<string, unknown> });
  if (res.statusCode >= 300) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json();
};

const book = async (app: App, key: string, startsAt: string, extra: Record<string, unknown> = {}) => {
  const res = await postAppointment(app, key, bookingBody(startsAt, extra));
  if (res.statusCode !== 201) throw new Error(`booking ${startsAt} answered ${res.statusCode}: ${res.body}`);
  return res.json<{ appointmentId: string }>().appointmentId;
};

t.test('availability follows every change at once, on every instance', async (t) => {
  const { app: a, admin, db, clock } = await buildBookingApp(t);
  // A second instance of the API on the same database, with its own memory of the days.
  const b = await buildApp(loadConfig({ DATABASE_URL: db.url, ENCRYPTION_KEY, LOG_LEVEL: 'silent', DELIVER_WEBHOOKS: 'false' }), {
    clock,
    listVersionShareMs: 0,
    readinessShareMs: 0,
  });
  t.teardown(() => b.close());
  checkResponsesAgainstDocument(b);

  t.test('a booking on one instance is seen by the next read on the other; a cancellation there frees it on both', async (t) => {
    const garage = await createBookingGarage(admin);
    const key = garage.shop.key;
    const nine = at(TUESDAY, '09:00');
    t.equal((await remaining(b, key, TUESDAY))[nine], 2, 'B has computed Tuesday');
    t.equal((await remaining(a, key, TUESDAY))[nine], 2, 'so has A');
    const first = await book(a, key, nine);
    t.equal((await remaining(b, key, TUESDAY))[nine], 1, 'B sees the booking made on A');
    await book(b, garage.partner.key, nine);
    t.equal((await remaining(a, key, TUESDAY))[nine], undefined, 'A sees the booking made on B: full');
    t.equal((await remaining(b, key, TUESDAY))[nine], undefined);
    await post(b, key, `/${first}/cancel`, { reason: 'changed plans' });
    t.equal((await remaining(a, key, TUESDAY))[nine], 1, 'A lists the place cancelled on B again at once');
    t.equal((await remaining(b, key, TUESDAY))[nine], 1);
  });

  t.test('a reschedule moves the place on both dates; a status change by the garage frees it', async (t) => {
    const garage = await createBookingGarage(admin);
    const key = garage.shop.key;
    const id = await book(a, key, at(TUESDAY, '10:00'), { durationMinutes: 60 });
    t.same([(await remaining(b, key, TUESDAY))[at(TUESDAY, '10:00')], (await remaining(b, key, WEDNESDAY))[at(WEDNESDAY, '10:00')]], [1, 2]);
    await post(a, key, `/${id}/reschedule`, { startsAt: at(WEDNESDAY, '10:00') });
    t.same([(await remaining(b, key, TUESDAY))[at(TUESDAY, '10:00')], (await remaining(b, key, WEDNESDAY))[at(WEDNESDAY, '10:00')]], [2, 1]);
    t.equal((await remaining(b, key, WEDNESDAY))[at(WEDNESDAY, '10:30')], 1, 'the 60-minute appointment holds both of its slots');
    await admin.setAppointmentStatus({ appointmentId: id, status: 'confirmed' });
    t.equal((await remaining(b, key, WEDNESDAY))[at(WEDNESDAY, '10:00')], 1, 'confirmed: still holds its place');
    await admin.setAppointmentStatus({ appointmentId: id, status: 'cancelled' });
    t.equal((await remaining(b, key, WEDNESDAY))[at(WEDNESDAY, '10:00')], 2, 'cancelled by the garage: free on the next read');
  });

  t.test("a closure or a change of the garage's settings is seen by the next read", async (t) => {
    const garage = await createBookingGarage(admin);
    const key = garage.shop.key;
    const before = await remaining(b, key, TUESDAY, WEDNESDAY);
    t.equal(Object.keys(before).length, 40, 'two days of twenty starts');
    await admin.closeGarage({ garageSlug: garage.slug, from: WEDNESDAY, to: WEDNESDAY, reason: 'Inventory' });
    t.same(Object.keys(await remaining(b, key, TUESDAY, WEDNESDAY)).map((s) => s.slice(0, 10)), Array(20).fill(TUESDAY), 'Wednesday closed');
    // Settings have no command yet: an operator's change in the database is seen too.
    await db.handle.pool!.query('update garages set capacity = 5 where id = $1', [garage.id]);
    t.equal((await remaining(b, key, TUESDAY))[at(TUESDAY, '09:00')], 5, 'capacity');
    await db.handle.pool!.query(`update garages set weekly_hours = jsonb_set(weekly_hours, '{tue}', '[{"start": "09:00", "end": "10:00"}]') where id = $1`, [garage.id]);
    t.same(Object.keys(await remaining(b, key, TUESDAY)), [at(TUESDAY, '09:00'), at(TUESDAY, '09:30')], 'opening hours');
  });

  t.test("an operator's change to appointments made in SQL is seen by the next read on every instance", async (t) => {
    const garage = await createBookingGarage(admin);
    const key = garage.shop.key;
    const nine = at(TUESDAY, '09:00');
    const id = await book(a, key, nine);
    t.equal((await remaining(a, key, TUESDAY))[nine], 1, 'A has computed Tuesday with the booking');
    t.equal((await remaining(b, key, TUESDAY))[nine], 1, 'so has B');
    // A manual fix outside the application: no use case, no lock taken (docs/contributors/sql-rules.md).
    await db.handle.pool!.query(`update appointments set status = 'cancelled' where id = $1`, [id]);
    t.equal((await remaining(a, key, TUESDAY))[nine], 2, 'A lists the place again');
    t.equal((await remaining(b, key, TUESDAY))[nine], 2, 'so does B');
    await db.handle.pool!.query(`delete from appointments where id = $1`, [id]);
    t.equal((await remaining(b, key, TUESDAY))[nine], 2, 'deleting the cancelled appointment frees nothing more');
    await db.handle.pool!.query(
      `insert into appointments (garage_id, integration_id, starts_at, ends_at, duration_minutes, customer_name)
         select $1, i.id, $2::timestamptz, $2::timestamptz + interval '30 minutes', 30, 'By hand'
           from integrations i where i.garage_id = $1 limit 1`,
      [garage.id, nine],
    );
    t.equal((await remaining(a, key, TUESDAY))[nine], 1, 'an appointment inserted by hand takes its place on A');
    t.equal((await remaining(b, key, TUESDAY))[nine], 1, 'and on B');
  });

  t.test('the kept answer equals a fresh computation', async (t) => {
    const garage = await createBookingGarage(admin, { capacity: 3 });
    const key = garage.shop.key;
    const month = `from=2026-11-30&to=2026-12-30`;
    // An instance that has kept every day, after changes it made itself and changes made on the other instance.
    await getAvailability(a, key, month);
    await book(a, key, at(TUESDAY, '08:00'), { durationMinutes: 120 });
    await book(b, key, at(TUESDAY, '09:00'));
    const cancelled = await book(b, key, at('2026-12-15', '14:00'), { durationMinutes: 90 });
    await getAvailability(a, key, `${month}&durationMinutes=60`);
    await post(b, key, `/${cancelled}/cancel`);
    await book(a, key, at('2026-12-22', '16:00'), { durationMinutes: 60 });
    clock.advance(30 * 60_000);
    // A third instance computes everything afresh.
    const fresh = await buildApp(loadConfig({ DATABASE_URL: db.url, ENCRYPTION_KEY, LOG_LEVEL: 'silent', DELIVER_WEBHOOKS: 'false' }), { clock });
    t.teardown(() => fresh.close());
    for (const duration of [30, 60, 120]) {
      const kept = await getAvailability(a, key, `${month}&durationMinutes=${duration}`);
      t.equal(kept.body, (await getAvailability(fresh, key, `${month}&durationMinutes=${duration}`)).body, `${duration} minutes`);
    }
    clock.advance(-30 * 60_000);
  });
});
