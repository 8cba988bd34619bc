import t from 'tap';
import type { App } from '../src/index.js';
import { build, product } from './helper.js';

/**
 * docs/operators/retention.md, "Sandbox data": the running API empties a sandbox untouched for SANDBOX_RETENTION_DAYS,
 * and the connector's test key then finds an empty sandbox with its catalog, as after a reset.
 */
const call = async (app: App, key: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: Record<string, unknown>) => {
  const response = await app.inject({ method, url: `/api/public${url}`, headers: { 'x-api-key': key, 'garage-version': '2026-11-26' }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() };
};

const localDate = (daysAhead: number) => new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);

t.test('an untouched sandbox is emptied by the retention job; its test key and catalog keep working', async (t) => {
  const { app, admin, db } = await build(t, { retentionIntervalMs: 50, env: { DELIVER_WEBHOOKS: 'false', SANDBOX_RETENTION_DAYS: '30' } });
  await admin.createGarage({ slug: 'aging', name: 'Aging', hours: 'mon-sun 08:00-18:00', minNoticeMinutes: 0 });
  await admin.importProducts('aging', [product('OIL')]);
  const created = await admin.createIntegration({ garageSlug: 'aging', name: 'Shop', sync: ['appointments', 'catalog'], webhookUrl: null });
  const testKey = created.sandbox.testApiKey;
  await app.ready();

  for (const key of [testKey, created.apiKey]) {
    const slots = await call(app, key, `/appointments/availability?from=${localDate(2)}&to=${localDate(3)}`);
    const booked = await call(app, key, '/appointments', 'POST', { startsAt: slots.body.data[0].startsAt, customer: { name: 'Ada', email: 'ada@example.com' } });
    t.equal(booked.status, 201);
  }
  const handle = db.handle.db;
  const sandboxId = (await handle.selectFrom('garages').select('id').where('sandbox_of', 'is not', null).executeTakeFirstOrThrow()).id;
  // The test key's use is recorded after its answer: wait for it, so that nothing touches the sandbox once aged below.
  for (let i = 0; i < 200; i += 1) {
    const testSide = await handle.selectFrom('integrations').select('last_used_at').where('garage_id', '=', sandboxId).executeTakeFirstOrThrow();
    if (testSide.last_used_at !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const sandboxAppointments = async () => (await handle.selectFrom('appointments').select('id').where('garage_id', '=', sandboxId).execute()).length;
  t.equal(await sandboxAppointments(), 1, 'a sandbox used today keeps its data');

  // 40 days without a request, a reset or a write, for the sandbox and the live garage alike.
  const aged = new Date(Date.now() - 40 * 86_400_000);
  await handle.updateTable('garages').set({ copied_at: aged }).where('id', '=', sandboxId).execute();
  await handle.updateTable('integrations').set({ last_used_at: aged }).execute();
  await handle.updateTable('appointments').set({ updated_at: aged, created_at: aged }).execute();

  for (let i = 0; i < 200 && (await sandboxAppointments()) > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  t.equal(await sandboxAppointments(), 0, 'the untouched sandbox is emptied');
  t.equal((await call(app, created.apiKey, '/appointments')).body.data.length, 1, 'the live garage keeps its appointment, however old');

  const listed = await call(app, testKey, '/appointments');
  t.equal(listed.status, 200, 'the test key still works');
  t.same(listed.body.data, [], 'and finds an empty sandbox');
  t.same((await call(app, testKey, '/products')).body.data.map((p: { sku: string }) => p.sku), ['OIL'], 'with its catalog');
  t.match(await app.metrics.registry.metrics(), /^data_oldest_row_age_seconds\{table="sandbox"\} 0$/m, 'no sandbox holds data past its retention');
  t.match(await app.metrics.registry.metrics(), /^data_retention_seconds\{table="sandbox"\} 2592000$/m, 'beside its retention: 30 days');
});
