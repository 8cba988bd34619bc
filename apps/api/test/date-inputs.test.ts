import t from 'tap';
import { build, seedGarage } from './helper.js';

/**
 * docs/reference/contract.md §1: times and dates that do not exist or fall outside the years 0001–9999 get 400, never 500. Every
 * time input of the API goes through the route schemas' `date-time` / `date` formats.
 */
const BAD_TIMES = [
  '2026-06-30T23:59:60Z', // leap second
  '2016-12-31T23:59:60Z', // even a real one: the database cannot hold it
  '2026-01-01T10:00:00+01:00[Europe/Paris]', // RFC 9557 suffix
  '2026-01-01T10:00:00Z[u-ca=gregory]',
  '0000-01-01T00:00:00Z', // year 0
  '0000-12-31T23:59:59+00:00',
  '+275760-09-13T00:00:00Z', // expanded years
  '-000001-01-01T00:00:00Z',
  '2026-02-29T00:00:00Z', // not a leap year
  '2026-13-01T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T10:00:00+24:00',
  '2026-01-01T10:00:00', // no offset
  '2026-01-01 10:00:00Z',
];

t.test('updatedSince that does not exist or cannot be stored: 400 on every list', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);
  const lists = [
    ['/api/public/products', garage.keys.catalog],
    ['/api/public/stock', garage.keys.stock],
    ['/api/public/fleet', garage.keys.all],
  ] as const;
  for (const [url, key] of lists) {
    for (const value of BAD_TIMES) {
      const res = await app.inject({ method: 'GET', url: `${url}?updatedSince=${encodeURIComponent(value)}`, headers: { 'x-api-key': key } });
      t.equal(res.statusCode, 400, `${url} updatedSince=${value}`);
      t.match(res.json(), { code: 'VALIDATION_FAILED', details: [{ path: '/updatedSince' }] });
    }
    for (const value of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2026-01-01T10:00:00.123456+05:30', '2026-01-01t10:00:00z']) {
      const res = await app.inject({ method: 'GET', url: `${url}?updatedSince=${encodeURIComponent(value)}`, headers: { 'x-api-key': key } });
      t.equal(res.statusCode, 200, `${url} updatedSince=${value} is a valid RFC 3339 time`);
    }
  }
});

t.test('booking startsAt and availability dates: 400, never 500', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);
  const headers = { 'x-api-key': garage.keys.all, 'content-type': 'application/json' };
  for (const startsAt of BAD_TIMES) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/appointments',
      headers,
      payload: JSON.stringify({ startsAt, customer: { name: 'Jeanne', email: 'j@example.com' } }),
    });
    t.equal(res.statusCode, 400, `startsAt=${startsAt}`);
    t.match(res.json(), { code: 'VALIDATION_FAILED', details: [{ path: '/startsAt' }] });
  }
  // Valid RFC 3339 times at the edges of the years a date column holds: refused by the booking rules, naming the field.
  for (const startsAt of ['0001-01-01T09:00:00Z', '0001-01-01T00:00:00+01:00', '0001-01-02T09:00:00+14:00', '9999-12-31T23:00:00-12:00']) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/appointments',
      headers,
      payload: JSON.stringify({ startsAt, customer: { name: 'Jeanne', email: 'j@example.com' } }),
    });
    t.equal(res.statusCode, 400, `startsAt=${startsAt}`);
    t.match(res.json(), { code: 'VALIDATION_FAILED', details: [{ path: '/startsAt' }] }, `startsAt=${startsAt}: details name the field`);
  }
  for (const [from, to] of [['0000-01-01', '0000-01-02'], ['2026-02-29', '2026-03-01'], ['2026-01-01', '2026-13-01']]) {
    const res = await app.inject({ method: 'GET', url: `/api/public/appointments/availability?from=${from}&to=${to}`, headers });
    t.equal(res.statusCode, 400, `availability ${from}..${to}`);
    t.equal(res.json().code, 'VALIDATION_FAILED');
  }
});
