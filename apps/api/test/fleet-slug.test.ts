import t from 'tap';
import { build, seedGarage } from './helper.js';

t.test('garageSlug is checked (length, charset) before the garage is looked up', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);
  const vehicleId = garage.vehicleIds['V-1'];
  const bad = ['Acme', 'a%20b', 'a'.repeat(64), '%00', 'acme%00', '%C3%A9', 'acme--x', '-acme', '..%2Facme'];
  for (const url of ['/api/public/fleet', `/api/public/fleet/${vehicleId}`]) {
    for (const slug of bad) {
      const res = await app.inject({ method: 'GET', url: `${url}?garageSlug=${slug}` });
      t.equal(res.statusCode, 400, `${url} garageSlug=${slug}`);
      t.match(res.json(), { code: 'VALIDATION_FAILED', details: [{ path: '/garageSlug' }] });
    }
    t.equal((await app.inject({ method: 'GET', url: `${url}?garageSlug=${garage.slug}` })).statusCode, 200);
    t.equal((await app.inject({ method: 'GET', url: `${url}?garageSlug=${'a'.repeat(63)}` })).statusCode, 404, 'well formed, unknown');
  }
});
