import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cliFails, cliJson, UUID } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

const { env, query } = await cliDatabase(t);
const dir = t.testdir();
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

t.before(async () => {
  await cliJson(t, ['garage', 'create', '--slug', 'north', '--name', 'Garage Nord', '--timezone', 'Europe/Brussels', '--capacity', '3', '--slot-minutes', '15'], env);
  await cliJson(t, ['garage', 'close', '--garage', 'north', '--from', '2026-12-24', '--to', '2026-12-26'], env);
  await cliJson(t, ['import', 'products', '--garage', 'north', file('products.json', [
    { sku: 'OIL', name: 'Engine oil', priceCents: 4290 },
    { sku: 'PADS', name: 'Brake pads', priceCents: 5490, active: false },
  ])], env);
  await cliJson(t, ['import', 'stock', '--garage', 'north', file('stock.json', [{ sku: 'OIL', quantity: 12 }, { sku: 'PADS', quantity: 3 }])], env);
  await cliJson(t, ['import', 'vehicles', '--garage', 'north', file('vehicles.json', [
    { reference: 'VO-1', make: 'Peugeot', model: '208', year: 2021, mileageKm: 30000, fuel: 'petrol', gearbox: 'manual', priceCents: 1500000 },
  ])], env);
});

const catalogOf = async (slug: string) => ({
  products: await query<{ id: string; sku: string; name: string; active: boolean }>(
    'select p.id, p.sku, p.name, p.active from products p join garages g on g.id = p.garage_id where g.slug = $1 order by sku', [slug]),
  stock: await query<{ sku: string; quantity: number }>(
    'select p.sku, s.quantity from stock s join products p on p.id = s.product_id join garages g on g.id = s.garage_id where g.slug = $1 order by sku', [slug]),
  vehicles: await query<{ id: string; reference: string; make: string }>(
    'select v.id, v.reference, v.make from vehicles v join garages g on g.id = v.garage_id where g.slug = $1 order by reference', [slug]),
  closures: await query<{ from: string; to: string }>(
    'select c.from_date::text as from, c.to_date::text as to from garage_closures c join garages g on g.id = c.garage_id where g.slug = $1', [slug]),
});

t.test('integration create makes a sandbox copied from the live garage: settings, closures, catalog, stock, vehicles', async (t) => {
  const created = await cliJson(t, ['integration', 'create', '--garage', 'north', '--name', 'Shop', '--sync', 'appointments,catalog'], env);
  const [sandbox] = await query('select * from garages where slug = $1', [created.sandboxGarageSlug]);
  const [live] = await query('select * from garages where slug = $1', ['north']);
  t.match(sandbox, {
    sandbox_of: live?.id, timezone: 'Europe/Brussels', capacity: 3, slot_minutes: 15, appointment_limit: 10_000, quote_limit: 1_000,
  });
  t.same(sandbox?.weekly_hours, live?.weekly_hours);
  const [liveCatalog, copy] = [await catalogOf('north'), await catalogOf(created.sandboxGarageSlug)];
  t.same(copy.products.map((p) => [p.sku, p.name, p.active]), liveCatalog.products.map((p) => [p.sku, p.name, p.active]), 'same skus');
  t.notOk(copy.products.some((p) => liveCatalog.products.some((l) => l.id === p.id)), 'new ids');
  t.same(copy.stock, liveCatalog.stock);
  t.same(copy.vehicles.map((v) => v.reference), ['VO-1']);
  t.not(copy.vehicles[0]?.id, liveCatalog.vehicles[0]?.id);
  t.same(copy.closures, [{ from: '2026-12-24', to: '2026-12-26' }]);
  const [testSide] = await query('select * from integrations where live_integration_id = $1', [created.id]);
  t.match(testSide, { garage_id: sandbox?.id, name: 'Shop', sync_appointments: true, sync_catalog: true, sync_stock: false, webhook_url: null });
  t.equal(testSide?.api_key_hash, sha256(created.testApiKey), 'only the hash of the test key is stored');
});

t.test('rotate-key --test, update --test-webhook-url, rotate-webhook-secret --test, list, revoke', async (t) => {
  const created = await cliJson(t, ['integration', 'create', '--garage', 'north', '--name', 'Connector'], env);
  const rotated = await cliJson(t, ['integration', 'rotate-key', created.id, '--test', '--overlap-hours', '2'], env);
  t.same(Object.keys(rotated), ['id', 'testApiKey', 'previousKeyExpiresAt']);
  t.equal(rotated.id, created.id);
  t.match(rotated.testApiKey, /^[0-9a-f]{32}$/);
  t.not(rotated.testApiKey, created.testApiKey);
  t.ok(Date.parse(rotated.previousKeyExpiresAt) > Date.now() + 3_600_000, 'the old test key works for the overlap');
  const [testSide] = await query('select * from integrations where live_integration_id = $1', [created.id]);
  t.equal(testSide?.api_key_hash, sha256(rotated.testApiKey));
  t.equal(testSide?.previous_api_key_hash, sha256(created.testApiKey));
  const [liveRow] = await query('select api_key_hash from integrations where id = $1', [created.id]);
  t.equal(liveRow?.api_key_hash, sha256(created.apiKey), 'the live key is untouched');

  const updated = await cliJson(t, ['integration', 'update', created.id, '--test-webhook-url', 'https://shop.example/test-hooks', '--name', 'Renamed'], env);
  t.same(updated, { id: created.id, name: 'Renamed', sync: [], webhookUrl: null, apiVersion: created.apiVersion }, 'the live webhook URL is untouched');
  let listed = (await cliJson(t, ['integration', 'list', '--garage', 'north'], env)).find((i: any) => i.id === created.id);
  t.same(listed.sandbox, { garageSlug: created.sandboxGarageSlug, webhookUrl: 'https://shop.example/test-hooks' });
  const [renamed] = await query('select name from integrations where live_integration_id = $1', [created.id]);
  t.equal(renamed?.name, 'Renamed', 'the test side follows the name, toggles and pin');
  await cliFails(t, ['integration', 'update', created.id, '--test-webhook-url', 'http://127.0.0.1/hooks', '--json'], env, 1, [/\/testWebhookUrl: /]);
  await cliJson(t, ['integration', 'update', created.id, '--no-test-webhook-url'], env);
  listed = (await cliJson(t, ['integration', 'list', '--garage', 'north'], env)).find((i: any) => i.id === created.id);
  t.equal(listed.sandbox.webhookUrl, null);

  const secret = await cliJson(t, ['integration', 'rotate-webhook-secret', created.id, '--test'], env);
  t.same(Object.keys(secret), ['id', 'testWebhookSecret', 'previousSecretExpiresAt']);
  t.match(secret.testWebhookSecret, /^whsec_/);
  t.not(secret.testWebhookSecret, created.testWebhookSecret);

  t.same(await cliJson(t, ['integration', 'revoke', created.id], env), { id: created.id });
  const revoked = await query<{ revoked: boolean }>('select revoked_at is not null as revoked from integrations where id = $1 or live_integration_id = $1', [created.id]);
  t.same(revoked, [{ revoked: true }, { revoked: true }], 'both keys are revoked');
  await cliFails(t, ['integration', 'rotate-key', created.id, '--test', '--json'], env, 2, [/NOT_FOUND/]);
});

t.test('an integration made before sandboxes gets one with its first test key', async (t) => {
  const created = await cliJson(t, ['integration', 'create', '--garage', 'north', '--name', 'Old'], env);
  await query('delete from integrations where live_integration_id = $1', [created.id]);
  const before = (await cliJson(t, ['integration', 'list', '--garage', 'north'], env)).find((i: any) => i.id === created.id);
  t.equal(before.sandbox, null);
  const rotated = await cliJson(t, ['integration', 'rotate-key', created.id, '--test'], env);
  t.match(rotated.testApiKey, /^[0-9a-f]{32}$/);
  const after = (await cliJson(t, ['integration', 'list', '--garage', 'north'], env)).find((i: any) => i.id === created.id);
  t.match(after.sandbox, { garageSlug: /^north-sandbox-[0-9a-f]{8}$/, webhookUrl: null });
});

t.test('sandbox-reset empties the sandbox and copies the live garage again', async (t) => {
  const created = await cliJson(t, ['integration', 'create', '--garage', 'north', '--name', 'Resettable'], env);
  const slug = created.sandboxGarageSlug;
  await cliJson(t, ['quote', 'create', '--garage', slug, '--customer', 'Test customer', '--line', 'Pads|1|5490|20'], env);
  const quotesIn = async (garage: string) =>
    Number((await query<{ n: string }>('select count(*) as n from quotes q join garages g on g.id = q.garage_id where g.slug = $1', [garage]))[0]?.n);
  t.equal(await quotesIn(slug), 1);
  t.equal(await quotesIn('north'), 0, 'a sandbox quote is not the live garage\'s');
  const before = await catalogOf(slug);

  await cliJson(t, ['import', 'products', '--garage', 'north', file('more.json', [{ sku: 'WIPERS', name: 'Wipers', priceCents: 2490 }, { sku: 'OIL', name: 'Engine oil 5 L', priceCents: 4490 }])], env);
  await cliJson(t, ['import', 'stock', '--garage', 'north', file('more-stock.json', [{ sku: 'OIL', quantity: 7 }])], env);
  const reset = await cliJson(t, ['integration', 'sandbox-reset', created.id], env);
  t.same(Object.keys(reset), ['id', 'resetAt']);
  t.equal(reset.id, created.id);
  t.ok(Math.abs(Date.parse(reset.resetAt) - Date.now()) < 60_000);
  t.equal(await quotesIn(slug), 0, 'quotes emptied');
  const after = await catalogOf(slug);
  t.same(after.products.map((p) => [p.sku, p.name]), [['OIL', 'Engine oil 5 L'], ['PADS', 'Brake pads'], ['WIPERS', 'Wipers']]);
  t.equal(after.products.find((p) => p.sku === 'OIL')?.id, before.products.find((p) => p.sku === 'OIL')?.id, 'a sandbox row keeps its id');
  t.same(after.stock.find((s) => s.sku === 'OIL'), { sku: 'OIL', quantity: 7 });

  await cliJson(t, ['import', 'products', '--garage', slug, file('drift.json', [{ sku: 'EXTRA', name: 'Only here', priceCents: 1 }, { sku: 'OIL', name: 'Edited in the sandbox', priceCents: 1 }])], env);
  await cliJson(t, ['integration', 'sandbox-reset', created.id], env);
  const restored = await catalogOf(slug);
  t.same(restored.products.map((p) => [p.sku, p.name]), after.products.map((p) => [p.sku, p.name]), 'what was written in the sandbox itself is undone too');
  await cliFails(t, ['integration', 'sandbox-reset', '00000000-0000-4000-8000-000000000000', '--json'], env, 2, [/NOT_FOUND/]);
});

t.test('the live garage\'s appointment list and garage slugs never show the sandbox', async (t) => {
  const listed = await cliJson(t, ['appointment', 'list', '--garage', 'north'], env);
  t.same(listed, []);
  const slugs = await query<{ slug: string }>('select slug from garages where sandbox_of is null');
  t.same(slugs.map((s) => s.slug), ['north']);
  t.match((await query<{ id: string }>('select id from garages'))[0]?.id, UUID);
});
