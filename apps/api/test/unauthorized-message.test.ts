import t from 'tap';
import { build, seedGarage } from './helper.js';

/** docs/reference/contract.md §3: every failed authentication gets the same 401 body, so a prober learns nothing from its wording. */
t.test('every 401 has one body, whatever the reason', async (t) => {
  const { app, admin } = await build(t, { keyCacheTtlMs: 0 });
  const garage = await seedGarage(admin);
  const revoked = await admin.createIntegration({ garageSlug: garage.slug, name: 'revoked', sync: ['catalog'], webhookUrl: null });
  await admin.revokeIntegration(revoked.integration.id);

  const cases: [string, string, Record<string, string>][] = [
    ['missing key', '/api/public/products', {}],
    ['malformed key', '/api/public/products', { 'x-api-key': 'not-a-key' }],
    ['unknown key', '/api/public/products', { 'x-api-key': 'f'.repeat(32) }],
    ['revoked key', '/api/public/products', { 'x-api-key': revoked.apiKey }],
    ['catalog toggle off', '/api/public/products', { 'x-api-key': garage.keys.stock }],
    ['stock toggle off', '/api/public/stock', { 'x-api-key': garage.keys.catalog }],
    ['appointments toggle off', '/api/public/appointments/availability?from=2026-12-01&to=2026-12-01', { 'x-api-key': garage.keys.none }],
    ['unknown key in the query', `/api/public/products?apiKey=${'e'.repeat(32)}`, {}],
    ['fleet with an unknown key', '/api/public/fleet', { 'x-api-key': 'd'.repeat(32) }],
    ['fleet with a revoked key', '/api/public/fleet', { 'x-api-key': revoked.apiKey }],
    ['fleet with neither key nor garageSlug', '/api/public/fleet', {}],
  ];
  const bodies = new Map<string, string>();
  for (const [reason, url, headers] of cases) {
    const res = await app.inject({ method: 'GET', url, headers });
    t.equal(res.statusCode, 401, reason);
    bodies.set(reason, res.body);
  }
  const distinct = new Set(bodies.values());
  t.equal(distinct.size, 1, `one body for all: ${JSON.stringify(Object.fromEntries(bodies))}`);
  const [body] = [...distinct];
  t.same(Object.keys(JSON.parse(body as string)).sort(), ['code', 'error']);
  t.match(JSON.parse(body as string), { error: /API key/, code: 'UNAUTHORIZED' });
});
