import t from 'tap';
import {
  at,
  bookingBody,
  buildBookingApp,
  createBookingGarage,
  getAvailability,
  postAppointment,
  starts,
  TUESDAY,
} from './appointments-support.js';
import { RFC3339 } from './helper.js';

t.test('availability and booking follow the garage settings (docs/reference/contract.md §4.1)', async (t) => {
  const { app, admin } = await buildBookingApp(t);

  t.test('GET availability: shape, caching headers, no CORS', async (t) => {
    const garage = await createBookingGarage(admin);
    const res = await getAvailability(app, garage.shop.key, `from=${TUESDAY}&to=${TUESDAY}`, { origin: 'https://garage.example' });
    t.equal(res.statusCode, 200);
    t.same(Object.keys(res.json()), ['data']);
    const data = res.json().data as { startsAt: string; endsAt: string; remaining: number }[];
    t.equal(data.length, 20, 'Monday–Friday 08:00–18:00 by default: twenty 30-minute starts');
    t.same(data[0], { startsAt: at(TUESDAY, '08:00'), endsAt: at(TUESDAY, '08:30'), remaining: 2 });
    t.same(data.at(-1), { startsAt: at(TUESDAY, '17:30'), endsAt: at(TUESDAY, '18:00'), remaining: 2 });
    for (const slot of data) t.match(slot.startsAt, RFC3339);
    t.match(res.headers.etag, /^"[^"]+"$/);
    t.equal(res.headers['cache-control'], 'private, no-cache');
    t.match(res.headers.vary, /x-api-key/);
    t.notOk(res.headers['access-control-allow-origin']);
    const cached = await getAvailability(app, garage.shop.key, `from=${TUESDAY}&to=${TUESDAY}`, { 'if-none-match': res.headers.etag as string });
    t.equal(cached.statusCode, 304);
    t.equal(cached.body, '');
    await postAppointment(app, garage.shop.key, bookingBody(at(TUESDAY, '08:00')));
    const changed = await getAvailability(app, garage.shop.key, `from=${TUESDAY}&to=${TUESDAY}`, { 'if-none-match': res.headers.etag as string });
    t.equal(changed.statusCode, 200, 'a booking changes the ETag');
    t.equal(changed.json().data[0].remaining, 1);

    const week = await getAvailability(app, garage.shop.key, 'from=2026-11-30&to=2026-12-06&durationMinutes=120');
    const days = new Set(starts(week.json()).map((s) => s.slice(0, 10)));
    t.same([...days], ['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04'], 'weekdays only');
    t.equal(starts(week.json())[0], at('2026-11-30', '11:00'), 'today from the end of the notice period');
    t.equal(week.json().data.at(-1).endsAt, at('2026-12-04', '18:00'), 'the last start still ends by closing time');

    for (const headers of [{}, { 'x-api-key': garage.catalog.key }]) {
      const res401 = await app.inject({ method: 'GET', url: `/api/public/appointments/availability?from=${TUESDAY}&to=${TUESDAY}`, headers });
      t.equal(res401.statusCode, 401);
      t.equal(res401.json().code, 'UNAUTHORIZED');
    }
  });

  t.test('GET availability: 400 for a bad query', async (t) => {
    const garage = await createBookingGarage(admin);
    const cases: [string, string][] = [
      ['', '/from'],
      [`from=${TUESDAY}`, '/to'],
      [`from=2026-12-1&to=${TUESDAY}`, '/from'],
      [`from=2026-02-30&to=2026-03-01`, '/from'],
      [`from=${TUESDAY}&to=2026-11-30`, '/to'],
      [`from=${TUESDAY}&to=2027-01-01`, '/to'],
      [`from=${TUESDAY}&to=${TUESDAY}&durationMinutes=45`, '/durationMinutes'],
      [`from=${TUESDAY}&to=${TUESDAY}&durationMinutes=abc`, '/durationMinutes'],
      [`from=${TUESDAY}&to=${TUESDAY}&durationMinutes=510`, '/durationMinutes'],
      [`from=${TUESDAY}&to=${TUESDAY}&duration=60`, '/duration'],
    ];
    for (const [query, path] of cases) {
      const res = await getAvailability(app, garage.shop.key, query);
      t.equal(res.statusCode, 400, query);
      t.equal(res.json().code, 'VALIDATION_FAILED', query);
      t.ok((res.json().details as { path: string }[]).some((d) => d.path === path), `${query}: ${res.body}`);
    }
    t.equal((await getAvailability(app, garage.shop.key, `from=${TUESDAY}&to=2026-12-31`)).statusCode, 200, '31 days inclusive');
  });

  t.test('`garage create` settings and `garage close` drive both endpoints', async (t) => {
    // One 60-minute slot at a time, Tuesdays 10:00–12:00 only, no notice, 15 days ahead (until
    // 2026-12-15), in Lisbon, whose winter offset is zero.
    const garage = await createBookingGarage(admin, {
      timezone: 'Europe/Lisbon',
      slotMinutes: 60,
      capacity: 1,
      hours: 'tue 10:00-12:00',
      minNoticeMinutes: 0,
      horizonDays: 15,
    });
    const key = garage.shop.key;
    const list = async (from: string, to = from, extra = '') => starts((await getAvailability(app, key, `from=${from}&to=${to}${extra}`)).json());
    t.same(await list('2026-11-30', '2026-12-20'), [
      '2026-12-01T10:00:00+00:00',
      '2026-12-01T11:00:00+00:00',
      '2026-12-08T10:00:00+00:00',
      '2026-12-08T11:00:00+00:00',
      '2026-12-15T10:00:00+00:00',
      '2026-12-15T11:00:00+00:00',
    ]);
    t.same(await list('2026-12-01', '2026-12-01', '&durationMinutes=120'), ['2026-12-01T10:00:00+00:00']);
    t.equal((await getAvailability(app, key, 'from=2026-12-01&to=2026-12-01&durationMinutes=30')).statusCode, 400, 'not a multiple of 60');
    t.equal((await postAppointment(app, key, bookingBody('2026-12-01T10:30:00+00:00'))).statusCode, 400, 'off the 60-minute grid');
    t.equal((await postAppointment(app, key, bookingBody('2026-12-22T10:00:00+00:00'))).json().code, 'DATES_UNAVAILABLE', 'beyond 15 days');

    const first = await postAppointment(app, key, bookingBody('2026-12-01T10:00:00+00:00'));
    t.equal(first.statusCode, 201, 'default duration: one 60-minute slot');
    t.same(await list('2026-12-01'), ['2026-12-01T11:00:00+00:00']);
    t.equal((await postAppointment(app, garage.partner.key, bookingBody('2026-12-01T10:00:00+00:00'))).json().code, 'SLOT_FULL', 'capacity 1');

    await admin.closeGarage({ garageSlug: garage.slug, from: '2026-12-08', to: '2026-12-08', reason: 'Training' });
    t.same(await list('2026-12-08'), [], 'closed date');
    t.equal((await postAppointment(app, key, bookingBody('2026-12-08T11:00:00+00:00'))).json().code, 'DATES_UNAVAILABLE');
    t.same(await list('2026-12-15'), ['2026-12-15T10:00:00+00:00', '2026-12-15T11:00:00+00:00'], 'only that date');
  });
});
