import t from 'tap';
import type { App } from '../src/index.js';
import { at, bookingBody, buildBookingApp, createBookingGarage, getAvailability, postAppointment, starts, TUESDAY } from './appointments-support.js';

/** docs/reference/contract.md §4.6 over HTTP and real Postgres: read, list, cancel and reschedule what was booked. */

const post = (app: App, key: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: `/api/public/appointments/${url}`,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const get = (app: App, key: string, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/public/appointments${url}`, headers: { 'x-api-key': key, ...headers } });

t.test('appointment lifecycle (docs/reference/contract.md §4.6)', async (t) => {
  const { app, admin, db, clock } = await buildBookingApp(t);
  const garage = await createBookingGarage(admin);
  const other = await createBookingGarage(admin);
  const book = async (startsAt: string, extra: Record<string, unknown> = {}, key = garage.shop.key) => {
    const res = await postAppointment(app, key, bookingBody(startsAt, extra));
    if (res.statusCode !== 201) throw new Error(`booking ${startsAt}: ${res.body}`);
    return res.json<{ appointmentId: string }>().appointmentId;
  };
  const events = async (appointmentId: string) =>
    (await db.handle.pool!.query<{ type: string; data: { id: string; status: string; startsAt: string } }>(
      "select type, payload as data from webhook_events where payload->>'id' = $1 order by created_at, type",
      [appointmentId],
    )).rows;

  t.test('GET one appointment: the §4.6 object, to every integration of the garage with syncAppointments', async (t) => {
    const id = await book(at(TUESDAY, '09:00'), { externalRef: 'get-1', productIds: [garage.products['A-1']], vehicle: { plate: 'AB-123-CD' } });
    const byPartner = await get(app, garage.partner.key, `/${id}`);
    t.equal(byPartner.statusCode, 200);
    t.same(byPartner.json().data, {
      id,
      status: 'booked',
      startsAt: at(TUESDAY, '09:00'),
      endsAt: at(TUESDAY, '09:30'),
      durationMinutes: 30,
      customer: { name: 'Jeanne Martin', email: 'jeanne@example.com', phone: null },
      vehicle: { plate: 'AB-123-CD', make: null, model: null, vin: null, mileageKm: null },
      productIds: [garage.products['A-1']],
      notes: null,
      externalRef: 'get-1',
      integrationId: garage.shop.id,
      createdAt: byPartner.json().data.createdAt,
      updatedAt: byPartner.json().data.createdAt,
      cancelledAt: null,
      cancellationReason: null,
    });
    t.match(byPartner.json().data.createdAt, /\+01:00$/, 'in the garage offset');
    t.ok(byPartner.headers.etag, 'an ETag');
    t.equal((await get(app, garage.partner.key, `/${id}`, { 'if-none-match': String(byPartner.headers.etag) })).statusCode, 304);
    t.equal((await get(app, other.shop.key, `/${id}`)).statusCode, 404, "another garage's key: not found");
    t.equal((await get(app, garage.catalog.key, `/${id}`)).statusCode, 401, 'a key without syncAppointments');
    t.equal((await get(app, garage.shop.key, '/8f0e8f8e-1111-4111-8111-111111111111')).statusCode, 404);
    const malformed = await get(app, garage.shop.key, '/not-a-uuid');
    t.equal(malformed.statusCode, 400);
    t.equal(malformed.json().code, 'VALIDATION_FAILED');
  });

  t.test('GET the list: every status, ordered by (updatedAt, id), filters, cursor, updatedSince, 304', async (t) => {
    const listed = await createBookingGarage(admin);
    const ids = [];
    for (const hhmm of ['10:00', '10:30', '11:00']) ids.push(await book(at(TUESDAY, hhmm), { externalRef: `list-${hhmm}` }, listed.shop.key));
    ids.push(await book(at('2026-12-02', '10:00'), {}, listed.partner.key));
    t.equal((await post(app, listed.shop.key, `${ids[0]}/cancel`)).statusCode, 200);

    const all = await get(app, listed.shop.key, '?limit=10');
    t.equal(all.statusCode, 200);
    const data = all.json<{ data: { id: string; status: string; updatedAt: string }[]; nextCursor: null }>().data;
    t.equal(data[3]?.id, ids[0], 'the cancellation moved the first one last');
    t.same(data.slice(0, 3).map((a) => a.id).sort(), [ids[1], ids[2], ids[3]].sort());
    t.equal(data[3]?.status, 'cancelled', 'cancelled appointments are listed too');
    t.equal(all.json().nextCursor, null);

    const first = await get(app, listed.shop.key, '?limit=2');
    const second = await get(app, listed.shop.key, `?limit=2&cursor=${encodeURIComponent(first.json().nextCursor)}`);
    t.same([...first.json().data, ...second.json().data].map((a: { id: string }) => a.id), data.map((a) => a.id), 'two pages, the same order');
    t.equal(second.json().nextCursor, null);

    const ofDay = async (query: string) => (await get(app, listed.shop.key, query)).json().data.map((a: { id: string }) => a.id);
    t.same(await ofDay('?from=2026-12-02'), [ids[3]]);
    t.same((await ofDay(`?to=${TUESDAY}`)).sort(), [ids[0], ids[1], ids[2]].sort());
    t.same(await ofDay('?status=cancelled'), [ids[0]]);
    t.same(await ofDay('?externalRef=list-10:30'), [ids[1]]);
    t.same((await get(app, listed.partner.key, '?externalRef=list-10:30')).json().data, [], "another integration's reference");
    t.same(await ofDay(`?updatedSince=${encodeURIComponent(data[3]?.updatedAt ?? '')}`), [ids[0]]);

    const again = await get(app, listed.shop.key, '?limit=10', { 'if-none-match': String(all.headers.etag) });
    t.equal(again.statusCode, 304);
    for (const bad of ['?status=lost', '?from=2026-13-01', '?from=2026-12-03&to=2026-12-01', '?limit=0']) {
      const res = await get(app, listed.shop.key, bad);
      t.equal(res.statusCode, 400, bad);
      t.equal(res.json().code, 'VALIDATION_FAILED');
    }
  });

  t.test('cancel frees the place at once; a second cancel, or one after the start, is APPOINTMENT_NOT_CHANGEABLE', async (t) => {
    const full = await createBookingGarage(admin, { capacity: 1 });
    const slot = at(TUESDAY, '14:00');
    const id = await book(slot, {}, full.shop.key);
    t.notOk(starts((await getAvailability(app, full.shop.key, `from=${TUESDAY}&to=${TUESDAY}`)).json()).includes(slot), 'full');
    t.equal((await postAppointment(app, full.partner.key, bookingBody(slot))).statusCode, 409);

    const cancelled = await post(app, full.partner.key, `${id}/cancel`, { reason: 'Customer called' });
    t.equal(cancelled.statusCode, 200);
    t.same(cancelled.json(), { ok: true, status: 'cancelled' });
    t.ok(starts((await getAvailability(app, full.shop.key, `from=${TUESDAY}&to=${TUESDAY}`)).json()).includes(slot), 'listed again');
    const view = (await get(app, full.shop.key, `/${id}`)).json().data;
    t.match(view, { status: 'cancelled', cancellationReason: 'Customer called', cancelledAt: /^2026-11-30T09:00:00\+01:00$/ });
    t.same((await events(id)).map((e) => [e.type, e.data.status]), [['appointment.created', 'booked'], ['appointment.cancelled', 'cancelled']]);

    const again = await post(app, full.shop.key, `${id}/cancel`);
    t.equal(again.statusCode, 409);
    t.equal(again.json().code, 'APPOINTMENT_NOT_CHANGEABLE');
    t.equal(await book(slot, {}, full.partner.key).then(() => 'booked'), 'booked', 'the freed place is bookable');

    const later = await book(at(TUESDAY, '15:00'), {}, full.shop.key);
    clock.set('2026-12-01T14:00:00Z');
    const started = await post(app, full.shop.key, `${later}/cancel`);
    t.equal(started.statusCode, 409, 'its start has passed');
    t.equal(started.json().code, 'APPOINTMENT_NOT_CHANGEABLE');
    clock.set('2026-11-30T08:00:00Z');

    t.equal((await post(app, other.shop.key, `${later}/cancel`)).statusCode, 404, "another garage's appointment");
    const long = await post(app, full.shop.key, `${later}/cancel`, { reason: 'x'.repeat(501) });
    t.equal(long.statusCode, 400);
    t.equal((await get(app, full.shop.key, `/${later}`)).json().data.status, 'booked', 'nothing changed on a 400');
  });

  t.test('cancel and reschedule take an Idempotency-Key scoped to the integration', async (t) => {
    const id = await book(at(TUESDAY, '16:00'));
    const first = await post(app, garage.shop.key, `${id}/cancel`, {}, { 'idempotency-key': 'cancel-1' });
    const replay = await post(app, garage.shop.key, `${id}/cancel`, {}, { 'idempotency-key': 'cancel-1' });
    t.equal(first.statusCode, 200);
    t.equal(replay.statusCode, 200, 'the first answer, not 409');
    t.equal(replay.headers['idempotent-replayed'], 'true');
    t.equal((await post(app, garage.shop.key, `${id}/cancel`, { reason: 'other' }, { 'idempotency-key': 'cancel-1' })).statusCode, 422);
  });

  // The rules themselves are the domain's, tested in full there (packages/domain/test/booking-reschedule-appointment.test.ts):
  // here, the route's answers, and that a refused change rolls back in the database and writes no event.
  t.test('reschedule moves the appointment under every booking rule; any error keeps the old time', async (t) => {
    const tight = await createBookingGarage(admin, { capacity: 1 });
    const id = await book(at(TUESDAY, '09:00'), { durationMinutes: 60 }, tight.shop.key);
    const blocker = await book(at(TUESDAY, '11:00'), {}, tight.shop.key);

    const overItself = await post(app, tight.partner.key, `${id}/reschedule`, { startsAt: at(TUESDAY, '09:30') });
    t.equal(overItself.statusCode, 200, 'its own current place does not count against it');
    t.match(overItself.json().data, { id, startsAt: at(TUESDAY, '09:30'), endsAt: at(TUESDAY, '10:30'), durationMinutes: 60, status: 'booked' });

    const full = await post(app, tight.shop.key, `${id}/reschedule`, { startsAt: at(TUESDAY, '10:30') });
    t.equal(full.statusCode, 409);
    t.equal(full.json().code, 'SLOT_FULL', '11:00 is taken by another appointment');
    for (const [body, status, code] of [
      [{ startsAt: at('2026-12-06', '10:00') }, 409, 'DATES_UNAVAILABLE'],
      [{ startsAt: at(TUESDAY, '09:10') }, 400, 'VALIDATION_FAILED'],
      [{ durationMinutes: 30 }, 400, 'VALIDATION_FAILED'],
    ] as const) {
      const res = await post(app, tight.shop.key, `${id}/reschedule`, body);
      t.equal(res.statusCode, status, JSON.stringify(body));
      t.equal(res.json().code, code);
    }
    t.match((await get(app, tight.shop.key, `/${id}`)).json().data, { startsAt: at(TUESDAY, '09:30') }, 'still at its last good time');
    t.same((await events(id)).map((e) => e.type), ['appointment.created', 'appointment.rescheduled'], 'failed changes wrote no event');

    const moved = await post(app, tight.shop.key, `${id}/reschedule`, { startsAt: at('2026-12-02', '14:00'), durationMinutes: 30 });
    t.equal(moved.statusCode, 200, 'to another day, with another duration');
    t.ok(starts((await getAvailability(app, tight.shop.key, `from=${TUESDAY}&to=${TUESDAY}`)).json()).includes(at(TUESDAY, '09:30')), 'the old place is free');

    t.equal((await post(app, tight.shop.key, `${blocker}/cancel`)).statusCode, 200);
    const afterCancel = await post(app, tight.shop.key, `${blocker}/reschedule`, { startsAt: at(TUESDAY, '12:00') });
    t.equal(afterCancel.statusCode, 409);
    t.equal(afterCancel.json().code, 'APPOINTMENT_NOT_CHANGEABLE');
  });

  t.test('concurrency: N reschedules into one slot of capacity C, exactly C win; a reschedule and a booking race for the last place', async (t) => {
    const busy = await createBookingGarage(admin, { capacity: 2 });
    const target = at('2026-12-03', '10:00');
    const racers: string[] = [];
    for (const hhmm of ['08:00', '08:00', '08:30', '08:30', '09:00', '09:00', '09:30', '09:30']) racers.push(await book(at('2026-12-04', hhmm), {}, busy.shop.key));
    const outcomes = await Promise.all(racers.map((id) => post(app, busy.shop.key, `${id}/reschedule`, { startsAt: target })));
    t.equal(outcomes.filter((r) => r.statusCode === 200).length, 2, `${racers.length} racers, capacity 2`);
    t.ok(outcomes.every((r) => r.statusCode === 200 || r.json().code === 'SLOT_FULL'));
    const atTarget = await get(app, busy.shop.key, '?from=2026-12-03&to=2026-12-03');
    t.equal(atTarget.json().data.length, 2, 'never overbooked');

    const last = at('2026-12-03', '11:00');
    await book(last, {}, busy.shop.key);
    const mover = racers.find((_, i) => outcomes[i]?.statusCode !== 200) as string;
    const [rescheduled, booked] = await Promise.all([
      post(app, busy.shop.key, `${mover}/reschedule`, { startsAt: last }),
      postAppointment(app, busy.partner.key, bookingBody(last)),
    ]);
    const won = [rescheduled.statusCode === 200, booked.statusCode === 201];
    t.equal(won.filter(Boolean).length, 1, 'exactly one takes the last place');
    t.equal((won[0] ? booked : rescheduled).json().code, 'SLOT_FULL', 'the other is told it is full');
    t.equal((await get(app, busy.shop.key, '?from=2026-12-03&to=2026-12-03&limit=50')).json().data.filter((a: { startsAt: string }) => a.startsAt === last).length, 2);
  });
});
