import t from 'tap';
import { bookingBody, buildBookingApp, postAppointment, TUESDAY, at } from './appointments-support.js';
import { product } from './helper.js';

/** docs/reference/contract.md §9: the sandbox's calendar is its own, and it holds at most so many appointments and quotes. */

t.test('a race of live and sandbox bookings on one slot never overbooks either calendar', async (t) => {
  const { app, admin } = await buildBookingApp(t);
  await admin.createGarage({ slug: 'race', name: 'Race', capacity: 2 });
  await admin.importProducts('race', [product('A-1')]);
  const created = await admin.createIntegration({ garageSlug: 'race', name: 'Shop', sync: ['appointments'], webhookUrl: null });
  const startsAt = at(TUESDAY, '10:00');
  const keys = [...Array(6).fill(created.apiKey), ...Array(6).fill(created.sandbox.testApiKey)] as string[];
  const answers = await Promise.all(keys.map((key) => postAppointment(app, key, bookingBody(startsAt))));
  const outcomes = (key: string) => answers.filter((_, i) => keys[i] === key).map((a) => a.statusCode).sort();
  t.same(outcomes(created.apiKey), [201, 201, 409, 409, 409, 409], 'live: exactly the capacity');
  t.same(outcomes(created.sandbox.testApiKey), [201, 201, 409, 409, 409, 409], 'sandbox: exactly the capacity, none taken by live');
  for (const answer of answers.filter((a) => a.statusCode === 409)) t.equal(answer.json().code, 'SLOT_FULL');
  const slots = await app.inject({
    method: 'GET',
    url: `/api/public/appointments/availability?from=${TUESDAY}&to=${TUESDAY}`,
    headers: { 'x-api-key': created.sandbox.testApiKey },
  });
  t.notOk(slots.json().data.some((s: { startsAt: string }) => s.startsAt === startsAt), 'the full slot is full in the sandbox too, by its own bookings');
  const webhookTest = await app.inject({ method: 'POST', url: '/api/public/webhooks/test', headers: { 'x-api-key': created.sandbox.testApiKey } });
  t.equal(webhookTest.statusCode, 409);
  t.match(webhookTest.json(), { code: 'WEBHOOK_NOT_CONFIGURED', error: /--test-webhook-url/ }, 'a sandbox without a webhook URL names the operator\'s command for it');
});

t.test('past its limits a sandbox answers 409 SANDBOX_LIMIT; a reset empties it; live garages have no limit', async (t) => {
  const { app, admin, db } = await buildBookingApp(t);
  await admin.createGarage({ slug: 'limited', name: 'Limited', capacity: 10 });
  const created = await admin.createIntegration({ garageSlug: 'limited', name: 'Shop', sync: ['appointments'], webhookUrl: null });
  // The limits are data of the sandbox's garage row: 10,000 and 1,000, lowered here to keep the test short.
  await db.handle.db.updateTable('garages').set({ appointment_limit: 2, quote_limit: 1 }).where('id', '=', created.sandbox.garage.id).execute();
  const key = created.sandbox.testApiKey;
  t.equal((await postAppointment(app, key, bookingBody(at(TUESDAY, '09:00')))).statusCode, 201);
  t.equal((await postAppointment(app, key, bookingBody(at(TUESDAY, '09:30')))).statusCode, 201);
  const refused = await postAppointment(app, key, bookingBody(at(TUESDAY, '10:00')));
  t.equal(refused.statusCode, 409);
  t.equal(refused.json().code, 'SANDBOX_LIMIT');
  t.equal(refused.headers['garage-mode'], 'test');
  for (const time of ['09:00', '09:30', '10:00']) t.equal((await postAppointment(app, created.apiKey, bookingBody(at(TUESDAY, time)))).statusCode, 201, 'live is not limited');

  const slug = created.sandbox.garage.slug;
  const line = { label: 'Pads', quantity: 1, unitPriceCents: 100, vatRate: 20 };
  await admin.createQuote({ garageSlug: slug, customerName: 'A', lines: [line] });
  await t.rejects(admin.createQuote({ garageSlug: slug, customerName: 'B', lines: [line] }), { code: 'SANDBOX_LIMIT' });

  await admin.resetSandbox(created.integration.id);
  t.equal((await postAppointment(app, key, bookingBody(at(TUESDAY, '11:00')))).statusCode, 201, 'a reset makes room again');
  await admin.createQuote({ garageSlug: slug, customerName: 'C', lines: [line] });
});

t.test('a reset racing bookings of its sandbox: every request answers, none with a 500', async (t) => {
  const { app, admin } = await buildBookingApp(t);
  await admin.createGarage({ slug: 'racing', name: 'Racing', capacity: 3 });
  const created = await admin.createIntegration({ garageSlug: 'racing', name: 'Shop', sync: ['appointments'], webhookUrl: null });
  const key = created.sandbox.testApiKey;
  const times = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'];
  for (let round = 0; round < 3; round++) {
    const [reset, ...bookings] = await Promise.all([
      app.inject({ method: 'POST', url: '/api/public/test-helpers/sandbox/reset', headers: { 'x-api-key': key } }),
      ...times.map((time) => postAppointment(app, key, bookingBody(at(TUESDAY, time)))),
    ]);
    t.equal(reset!.statusCode, 200, 'the reset');
    t.same(bookings.map((b) => b.statusCode).filter((status) => status !== 201 && status !== 409), [], 'the bookings');
  }
});

