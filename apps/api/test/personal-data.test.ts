import t from 'tap';
import { vehicle } from './helper.js';
import { at, bookingBody, buildBookingApp, createBookingGarage, postAppointment, TUESDAY } from './appointments-support.js';

/**
 * docs/reference/contract.md §11: after `customer erase`, the events feed and the deliveries still list, with
 * "[erased]" where the person was, and no new event or delivery tells a connector anything about it.
 */
t.test('an erased person still has their events listed, without their data', async (t) => {
  const { app, admin, db } = await buildBookingApp(t);
  const garage = await createBookingGarage(admin);
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/public${url}`, headers: { 'x-api-key': garage.shop.key } });
    t.equal(res.statusCode, 200, url);
    return res.json() as { data: Record<string, unknown>[] };
  };

  const booked = await postAppointment(app, garage.shop.key, bookingBody(at(TUESDAY, '10:00'), {
    customer: { name: 'Jeanne Martin', email: 'Jeanne@Example.com', phone: '+33 6 12 34 56 78' },
    notes: 'Rattle on the left at 90 km/h',
  }));
  t.equal(booked.statusCode, 201);
  const other = await postAppointment(app, garage.shop.key, bookingBody(at(TUESDAY, '11:00'), { customer: { name: 'Paul Durand', email: 'paul@example.com' } }));
  t.equal(other.statusCode, 201);
  const { ids } = await admin.importVehicles(garage.slug, [vehicle('V-1')]);
  const lead = await app.inject({
    method: 'POST',
    url: '/api/public/fleet/lead',
    payload: { vehicleId: ids['V-1'], name: 'Jeanne Martin', email: 'jeanne@example.com', message: 'Is it still for sale?', consent: true },
  });
  t.equal(lead.statusCode, 201);
  const { token } = await admin.createQuote({
    garageSlug: garage.slug,
    customerName: 'jeanne martin ',
    lines: [{ label: 'Brake pads', quantity: 1, unitPriceCents: 9000, vatRate: 20 }],
    expiresAt: new Date('2026-12-20T00:00:00Z'),
  });
  const accepted = await app.inject({ method: 'POST', url: `/api/public/quotes/${token}/accept`, payload: { signerName: 'Jeanne Martin', comment: 'Call me on my mobile' } });
  t.equal(accepted.statusCode, 200);

  const feedBefore = (await get('/events')).data;
  const deliveriesBefore = (await get('/webhooks/deliveries')).data;
  t.equal(feedBefore.length, 4, 'two bookings, a lead, a quote decision');
  const rows = async (table: 'webhook_events' | 'webhook_deliveries') =>
    Number((await db.handle.db.selectFrom(table).select(db.handle.db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const [eventsBefore, deliveryRowsBefore] = [await rows('webhook_events'), await rows('webhook_deliveries')];

  const erased = await admin.eraseCustomerData({ garageSlug: garage.slug, email: 'jeanne@example.com' });
  t.match(erased, { erasedAt: String, live: { appointments: 1, leads: 1, quotes: 1, events: 3 }, sandbox: { appointments: 0, leads: 0, quotes: 0, events: 0 } });

  const feed = (await get('/events')).data;
  t.same(feed.map((e) => e['id']), feedBefore.map((e) => e['id']), 'every event still listed, in the same order');
  const byType = (type: string) => feed.filter((e) => e['type'] === type).map((e) => e['data'] as Record<string, unknown>);
  const [mine, paul] = byType('appointment.created');
  t.match(mine, { customer: { name: '[erased]', email: '[erased]', phone: '[erased]' }, notes: '[erased]', startsAt: at(TUESDAY, '10:00') });
  t.match(paul, { customer: { name: 'Paul Durand', email: 'paul@example.com' } }, 'another person is untouched');
  t.match(byType('lead.created')[0], { name: '[erased]', email: '[erased]', phone: null, message: '[erased]' });
  t.match(byType('quote.accepted')[0], { customerName: '[erased]', signerName: '[erased]', comment: '[erased]', totalCents: 10800 });
  t.notMatch(JSON.stringify(feed), /jeanne|Rattle|mobile/i, 'nothing of the person is left in the feed');

  t.same((await get('/webhooks/deliveries')).data.map((d) => d['id']), deliveriesBefore.map((d) => d['id']), 'the deliveries still list');
  t.equal(await rows('webhook_events'), eventsBefore, 'no event about the erasure');
  t.equal(await rows('webhook_deliveries'), deliveryRowsBefore, 'nothing new to deliver');

  const appointment = await get(`/appointments/${booked.json().appointmentId}`);
  t.match(appointment, { data: { customer: { name: '[erased]' } } });
  const recorded = await db.handle.db.selectFrom('personal_data_erasures').selectAll().execute();
  t.match(recorded, [{ garage_id: garage.id, appointments: 1, leads: 1, quotes: 1, events: 3 }]);
  t.notMatch(JSON.stringify(recorded), /jeanne/i, 'the erasure is recorded without the email');
});
