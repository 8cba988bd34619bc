import { randomUUID } from 'node:crypto';
import t from 'tap';
import {
  at,
  bookingBody,
  buildBookingApp,
  createBookingGarage,
  customer,
  getAvailability,
  postAppointment,
  TUESDAY,
} from './appointments-support.js';
import { UUID } from './helper.js';

t.test('POST /api/public/appointments (docs/reference/contract.md §4.1)', async (t) => {
  const { app, admin, db } = await buildBookingApp(t);
  const garage = await createBookingGarage(admin);
  const other = await createBookingGarage(admin);
  const book = (body: unknown, key = garage.shop.key, headers: Record<string, string> = {}) =>
    postAppointment(app, key, body, headers);

  /** The `details` paths of a 400, or the status and body when it is not one. */
  const invalid = async (body: unknown) => {
    const res = await book(body);
    if (res.statusCode !== 400 || res.json().code !== 'VALIDATION_FAILED') return `${res.statusCode} ${res.body}`;
    return (res.json().details as { path: string }[]).map((d) => d.path);
  };

  t.test('201 with exactly success and appointmentId; the appointment is stored as sent', async (t) => {
    const body = {
      startsAt: at(TUESDAY, '14:00'),
      durationMinutes: 60,
      customer: { name: 'Jeanne Martin', email: 'jeanne@example.com', phone: '+33612345678' },
      vehicle: { plate: 'AB-123-CD', make: 'Peugeot', model: '208', vin: 'VF3XXXXXXXXXXXXXX', mileageKm: 42000 },
      productIds: [garage.products['A-1'], garage.products['B-2'], garage.products['A-1']],
      notes: 'Brakes squeak',
      externalRef: 'shop-order-1042',
    };
    const res = await book(body, garage.shop.key, { origin: 'https://garage.example' });
    t.equal(res.statusCode, 201);
    t.match(res.headers['content-type'], /^application\/json; charset=utf-8$/);
    t.same(Object.keys(res.json()).sort(), ['appointmentId', 'success']);
    t.equal(res.json().success, true);
    t.match(res.json().appointmentId, UUID);
    t.notOk(res.headers['access-control-allow-origin'], 'key-authenticated: no CORS');
    t.notOk(res.headers['idempotent-replayed']);

    const stored = await db.handle.db
      .selectFrom('appointments')
      .selectAll()
      .where('id', '=', res.json().appointmentId)
      .executeTakeFirstOrThrow();
    t.match(stored, {
      garage_id: garage.id,
      integration_id: garage.shop.id,
      duration_minutes: 60,
      customer_name: 'Jeanne Martin',
      customer_phone: '+33612345678',
      vehicle: body.vehicle,
      notes: 'Brakes squeak',
      external_ref: 'shop-order-1042',
    });
    t.equal(stored.starts_at.toISOString(), '2026-12-01T13:00:00.000Z');
    t.equal(stored.ends_at.toISOString(), '2026-12-01T14:00:00.000Z');
    const products = await db.handle.db
      .selectFrom('appointment_products')
      .select('product_id')
      .where('appointment_id', '=', stored.id)
      .execute();
    t.same(products.map((p) => p.product_id).sort(), [garage.products['A-1'], garage.products['B-2']].sort(), 'a repeated product once');
  });

  t.test('durationMinutes defaults to slotMinutes; optional fields may be null', async (t) => {
    const res = await book({
      startsAt: at(TUESDAY, '15:00'),
      customer: { name: 'Paul', email: null, phone: '+33 6 12 34 56 78' },
      vehicle: { plate: null, make: null, model: null, vin: null, mileageKm: null },
      notes: null,
      externalRef: null,
    });
    t.equal(res.statusCode, 201, res.body);
    const row = await db.handle.db
      .selectFrom('appointments')
      .select(['duration_minutes', 'ends_at'])
      .where('id', '=', res.json().appointmentId)
      .executeTakeFirstOrThrow();
    t.equal(row.duration_minutes, 30);
    t.equal(row.ends_at.toISOString(), '2026-12-01T14:30:00.000Z');
  });

  t.test('401 without a key, with an unknown key, or without syncAppointments', async (t) => {
    for (const headers of [{}, { 'x-api-key': '0'.repeat(32) }, { 'x-api-key': garage.catalog.key }]) {
      const res = await app.inject({ method: 'POST', url: '/api/public/appointments', headers, payload: bookingBody(at(TUESDAY, '09:00')) });
      t.equal(res.statusCode, 401);
      t.same(res.json(), { error: res.json().error, code: 'UNAUTHORIZED' });
    }
  });

  // The time rules themselves are the domain's, tested in full there (packages/domain/test/booking-book-appointment.test.ts):
  // here, that the route's schema and the use case both answer with the contract's 400 and the field's path, and
  // that the app's clock reaches the use case.
  t.test('400 VALIDATION_FAILED: time rules, each reported at /startsAt or /durationMinutes', async (t) => {
    const cases: [string, unknown, string[]][] = [
      ['missing', { customer }, ['/startsAt']],
      ['a number', { startsAt: 1764576000, customer }, ['/startsAt']],
      ['no offset', bookingBody('2026-12-01T09:00:00'), ['/startsAt']],
      ['in the past', bookingBody(at('2026-11-30', '08:30')), ['/startsAt']],
      ['off the slot grid', bookingBody(at(TUESDAY, '09:10')), ['/startsAt']],
      ['duration not a multiple of the slot', bookingBody(at(TUESDAY, '09:00'), { durationMinutes: 45 }), ['/durationMinutes']],
      ['duration over 480', bookingBody(at(TUESDAY, '09:00'), { durationMinutes: 510 }), ['/durationMinutes']],
    ];
    for (const [name, body, paths] of cases) t.same(await invalid(body), paths, name);
  });

  t.test('400 VALIDATION_FAILED: fields, with the domain limits (boundary values pass)', async (t) => {
    const start = at(TUESDAY, '16:00');
    const cases: [string, unknown, string[]][] = [
      ['no customer', { startsAt: start }, ['/customer']],
      ['no customer name', { startsAt: start, customer: { email: 'a@b.c' } }, ['/customer/name']],
      ['blank name', { startsAt: start, customer: { name: '   ', email: 'a@b.c' } }, ['/customer/name']],
      ['name of 121 characters', { startsAt: start, customer: { name: 'n'.repeat(121), email: 'a@b.c' } }, ['/customer/name']],
      ['neither email nor phone', { startsAt: start, customer: { name: 'Paul' } }, ['/customer']],
      ['both null', { startsAt: start, customer: { name: 'Paul', email: null, phone: null } }, ['/customer']],
      ['email without @', { startsAt: start, customer: { name: 'Paul', email: 'paul.example.com' } }, ['/customer/email']],
      ['email with a space', { startsAt: start, customer: { name: 'Paul', email: 'paul @example.com' } }, ['/customer/email']],
      ['email of 255 characters', { startsAt: start, customer: { name: 'Paul', email: `${'p'.repeat(243)}@example.com` } }, ['/customer/email']],
      ['phone with letters', { startsAt: start, customer: { name: 'Paul', phone: '+33 six' } }, ['/customer/phone']],
      ['phone of 33 characters', { startsAt: start, customer: { name: 'Paul', phone: '1'.repeat(33) } }, ['/customer/phone']],
      ['vin of 18 characters', bookingBody(start, { vehicle: { vin: 'V'.repeat(18) } }), ['/vehicle/vin']],
      ['mileage over 10,000,000', bookingBody(start, { vehicle: { mileageKm: 10_000_001 } }), ['/vehicle/mileageKm']],
      ['negative mileage', bookingBody(start, { vehicle: { mileageKm: -1 } }), ['/vehicle/mileageKm']],
      ['plate of 33 characters', bookingBody(start, { vehicle: { plate: 'P'.repeat(33) } }), ['/vehicle/plate']],
      ['vehicle not an object', bookingBody(start, { vehicle: 'AB-123-CD' }), ['/vehicle']],
      ['101 productIds', bookingBody(start, { productIds: Array.from({ length: 101 }, () => randomUUID()) }), ['/productIds']],
      ['a productId that is not a UUID', bookingBody(start, { productIds: ['A-1'] }), ['/productIds/0']],
      ['notes of 2001 characters', bookingBody(start, { notes: 'x'.repeat(2001) }), ['/notes']],
      ['externalRef of 101 characters', bookingBody(start, { externalRef: 'r'.repeat(101) }), ['/externalRef']],
      ['empty externalRef', bookingBody(start, { externalRef: '' }), ['/externalRef']],
      ['unknown property', bookingBody(start, { note: 'typo' }), ['/note']],
      ['unknown customer property', { startsAt: start, customer: { ...customer, nickname: 'J' } }, ['/customer/nickname']],
      ['unknown vehicle property', bookingBody(start, { vehicle: { colour: 'red' } }), ['/vehicle/colour']],
    ];
    for (const [name, body, paths] of cases) t.same(await invalid(body), paths, name);

    const boundary = await book({
      startsAt: start,
      customer: { name: 'n'.repeat(120), email: `${'p'.repeat(242)}@example.com`, phone: '1'.repeat(32) },
      vehicle: { plate: 'P'.repeat(32), make: 'M'.repeat(100), model: 'M'.repeat(100), vin: 'V'.repeat(17), mileageKm: 10_000_000 },
      notes: 'x'.repeat(2000),
      externalRef: 'r'.repeat(100),
    });
    t.equal(boundary.statusCode, 201, `every limit itself is allowed: ${boundary.body}`);
    const hundred = await book(bookingBody(start, { productIds: Array.from({ length: 100 }, () => randomUUID()) }));
    t.equal(hundred.json().code, 'INVALID_REFERENCE', '100 productIds pass validation (and are then unknown)');
  });

  t.test('400 for malformed JSON, 415 for a body that is not JSON, 413 over 64 KiB', async (t) => {
    const headers = { 'x-api-key': garage.shop.key, 'content-type': 'application/json' };
    const malformed = await app.inject({ method: 'POST', url: '/api/public/appointments', headers, payload: '{"startsAt": ' });
    t.equal(malformed.statusCode, 400);
    t.equal(malformed.json().code, 'VALIDATION_FAILED');
    const text = await app.inject({
      method: 'POST',
      url: '/api/public/appointments',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'startsAt=tomorrow',
    });
    t.equal(text.statusCode, 415);
    t.equal(text.json().code, 'UNSUPPORTED_MEDIA_TYPE');
    const large = await book(bookingBody(at(TUESDAY, '09:00'), { notes: 'x'.repeat(70_000) }));
    t.equal(large.statusCode, 413);
    t.equal(large.json().code, 'PAYLOAD_TOO_LARGE');
  });

  t.test('400 INVALID_REFERENCE: an unknown product, or a product of another garage', async (t) => {
    const unknown = await book(bookingBody(at(TUESDAY, '09:00'), { productIds: [garage.products['A-1'], randomUUID()] }));
    t.equal(unknown.statusCode, 400);
    t.match(unknown.json(), { code: 'INVALID_REFERENCE', details: [{ path: '/productIds/1' }] });
    const foreign = await book(bookingBody(at(TUESDAY, '09:00'), { productIds: [other.products['A-1']] }));
    t.equal(foreign.statusCode, 400);
    t.match(foreign.json(), { code: 'INVALID_REFERENCE', details: [{ path: '/productIds/0' }] });
    const count = await db.handle.db.selectFrom('appointments').select(db.handle.db.fn.countAll().as('n')).where('garage_id', '=', other.id).executeTakeFirstOrThrow();
    t.equal(Number(count.n), 0);
  });

  t.test('409 DATES_UNAVAILABLE: outside opening hours, closed, within notice, beyond the horizon', async (t) => {
    await admin.closeGarage({ garageSlug: garage.slug, from: '2026-12-24', to: '2026-12-26', reason: 'Christmas' });
    const cases: [string, unknown][] = [
      ['before opening', bookingBody(at(TUESDAY, '07:30'))],
      ['running past closing', bookingBody(at(TUESDAY, '17:30'), { durationMinutes: 60 })],
      ['on a Saturday (closed day of the week)', bookingBody(at('2026-12-05', '10:00'))],
      ['on a closure date', bookingBody(at('2026-12-24', '10:00'))],
      ['on the last closure date', bookingBody(at('2026-12-26', '10:00'))],
      ['within the 120-minute notice', bookingBody(at('2026-11-30', '10:30'))],
      ['beyond the 60-day horizon', bookingBody(at('2027-02-01', '10:00'))],
    ];
    for (const [name, body] of cases) {
      const res = await book(body);
      t.equal(res.statusCode, 409, name);
      t.equal(res.json().code, 'DATES_UNAVAILABLE', name);
    }
    t.equal((await book(bookingBody(at('2026-11-30', '11:00')))).statusCode, 201, 'exactly at the notice limit');
    t.equal((await book(bookingBody(at('2026-12-23', '10:00')))).statusCode, 201, 'the day before a closure');
    t.equal((await book(bookingBody(at('2027-01-29', '17:30')))).statusCode, 201, 'the last day of the horizon');
  });

  t.test('409 SLOT_FULL once a covered slot has capacity appointments, whichever integration booked them', async (t) => {
    t.equal((await book(bookingBody(at('2026-12-02', '09:00')))).statusCode, 201);
    t.equal((await book(bookingBody(at('2026-12-02', '09:00')), garage.partner.key)).statusCode, 201);
    const count = async (table: 'appointments' | 'webhook_events') =>
      (await db.handle.db.selectFrom(table).select('id').where('garage_id', '=', garage.id).execute()).length;
    const before = { appointments: await count('appointments'), events: await count('webhook_events') };
    const full = await book(bookingBody(at('2026-12-02', '09:00')));
    t.equal(full.statusCode, 409);
    t.same(full.json(), { error: full.json().error, code: 'SLOT_FULL' });
    t.same(
      { appointments: await count('appointments'), events: await count('webhook_events') },
      before,
      'a refused booking writes neither an appointment nor an event',
    );
    const spanning = await book(bookingBody(at('2026-12-02', '08:30'), { durationMinutes: 60 }));
    t.equal(spanning.json().code, 'SLOT_FULL', 'a 60-minute booking covering the full slot');
    t.equal((await book(bookingBody(at('2026-12-02', '08:00'), { durationMinutes: 60 }))).statusCode, 201, 'touching is not overlapping');
    t.equal((await book(bookingBody(at('2026-12-02', '09:00')), other.shop.key)).statusCode, 201, 'another garage has its own capacity');
  });

  t.test('409 DUPLICATE: an externalRef already used by the same integration; another integration may reuse it', async (t) => {
    t.equal((await book(bookingBody(at('2026-12-03', '09:00'), { externalRef: 'order-7' }))).statusCode, 201);
    const again = await book(bookingBody(at('2026-12-03', '10:00'), { externalRef: 'order-7' }));
    t.equal(again.statusCode, 409);
    t.same(again.json(), { error: 'This externalRef was already used by this integration', code: 'DUPLICATE' });
    t.equal((await book(bookingBody(at('2026-12-03', '10:00'), { externalRef: 'order-7' }), garage.partner.key)).statusCode, 201);
    const rows = await db.handle.db.selectFrom('appointments').select('id').where('external_ref', '=', 'order-7').execute();
    t.equal(rows.length, 2, 'the duplicate stored nothing');
  });

  t.test('appointment.created is written to the outbox for integrations with syncAppointments and a webhook URL', async (t) => {
    const res = await book({
      startsAt: at('2026-12-04', '14:30'),
      durationMinutes: 90,
      customer: { name: 'Zoé Leroy', phone: '+33612345678' },
      vehicle: { plate: 'EF-456-GH', mileageKm: 120000 },
      productIds: [garage.products['B-2']],
      externalRef: 'order-webhook',
    });
    t.equal(res.statusCode, 201);
    const id = res.json().appointmentId as string;
    const events = await db.handle.db
      .selectFrom('webhook_events')
      .select(['id', 'type', 'payload'])
      .where('garage_id', '=', garage.id)
      .where(({ eb, ref }) => eb(ref('payload', '->>').key('id'), '=', id))
      .execute();
    t.equal(events.length, 1);
    const [event] = events;
    t.equal(event?.type, 'appointment.created');
    t.match(event?.payload, {
      id,
      status: 'booked',
      startsAt: '2026-12-04T14:30:00+01:00',
      endsAt: '2026-12-04T16:00:00+01:00',
      durationMinutes: 90,
      customer: { name: 'Zoé Leroy', email: null, phone: '+33612345678' },
      vehicle: { plate: 'EF-456-GH', make: null, model: null, vin: null, mileageKm: 120000 },
      productIds: [garage.products['B-2']],
      notes: null,
      externalRef: 'order-webhook',
      integrationId: garage.shop.id,
    });
    const read = await app.inject({ method: 'GET', url: `/api/public/appointments/${id}`, headers: { 'x-api-key': garage.shop.key } });
    t.same(event?.payload, read.json().data, 'the event carries the appointment object of §4.6, as GET returns it');
    const deliveries = await db.handle.db
      .selectFrom('webhook_deliveries')
      .select(['integration_id', 'url', 'status'])
      .where('event_id', '=', event?.id ?? '')
      .execute();
    t.same(deliveries, [{ integration_id: garage.shop.id, url: 'http://127.0.0.1:9/hooks/shop', status: 'pending' }]);

    const rejected = await book(bookingBody(at('2026-12-04', '14:30'), { externalRef: 'order-webhook' }));
    t.equal(rejected.json().code, 'DUPLICATE');
    const all = await db.handle.db.selectFrom('webhook_events').select('id').where('garage_id', '=', garage.id).execute();
    const booked = await db.handle.db.selectFrom('appointments').select('id').where('garage_id', '=', garage.id).execute();
    t.equal(all.length, booked.length, 'one event per appointment: a failed booking leaves no event');
  });

  t.test('availability counts every booking of the day, as booking does', async (t) => {
    // 2026-12-02 so far: two 30-minute bookings at 09:00 and one 60-minute booking at 08:00.
    const res = await getAvailability(app, garage.shop.key, 'from=2026-12-02&to=2026-12-02');
    t.equal(res.statusCode, 200);
    const data = res.json().data as { startsAt: string; remaining: number }[];
    t.same(
      data.slice(0, 3).map((s) => [s.startsAt, s.remaining]),
      [
        [at('2026-12-02', '08:00'), 1],
        [at('2026-12-02', '08:30'), 1],
        [at('2026-12-02', '09:30'), 2],
      ],
    );
  });
});
