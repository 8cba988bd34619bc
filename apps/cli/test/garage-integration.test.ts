import { createHash } from 'node:crypto';
import t from 'tap';
import { cliFails, cliJson, runCli, UUID } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

const { env, query } = await cliDatabase(t);

const LATEST = '2026-11-26';
const HOURS = 'mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00';

t.test('garage create prints {id, slug} and stores every booking setting', async (t) => {
  const created = await cliJson(t, [
    'garage', 'create', '--slug', 'north', '--name', 'Garage Nord', '--timezone', 'Europe/Brussels', '--currency', 'CHF',
    '--slot-minutes', '15', '--capacity', '3', '--hours', HOURS, '--min-notice-minutes', '60', '--horizon-days', '30',
  ], env);
  t.same(Object.keys(created).sort(), ['id', 'slug']);
  t.match(created.id, UUID);
  t.equal(created.slug, 'north');
  const [row] = await query('select * from garages where id = $1', [created.id]);
  t.match(row, {
    slug: 'north', name: 'Garage Nord', timezone: 'Europe/Brussels', currency: 'CHF', slot_minutes: 15, capacity: 3,
    min_notice_minutes: 60, horizon_days: 30,
  });
  t.same((row?.weekly_hours as Record<string, unknown>).sat, [{ start: '09:00', end: '12:00' }]);
  t.same((row?.weekly_hours as Record<string, unknown>).mon, [{ start: '08:00', end: '12:00' }, { start: '14:00', end: '18:00' }]);

  const defaults = await runCli(['garage', 'create', '--slug', 'south', '--name', 'Garage Sud'], env);
  t.equal(defaults.code, 0);
  t.match(defaults.stdout, /^Created garage south \([0-9a-f-]{36}\)\n$/, 'without --json: one human-readable line');
  const [south] = await query('select * from garages where slug = $1', ['south']);
  t.match(south, { timezone: 'Europe/Paris', currency: 'EUR', slot_minutes: 30, capacity: 2, min_notice_minutes: 120, horizon_days: 60 });
  t.same((south?.weekly_hours as Record<string, unknown>).fri, [{ start: '08:00', end: '18:00' }], 'default hours: Monday–Friday 08:00–18:00');
  t.same((south?.weekly_hours as Record<string, unknown>).sat, []);
});

t.test('garage create rejects bad input without writing anything', async (t) => {
  await Promise.all([
    cliFails(t, ['garage', 'create', '--slug', 'north', '--name', 'Again', '--json'], env, 2, [/DUPLICATE/]),
    cliFails(t, ['garage', 'create', '--slug', 'bad-hours', '--name', 'X', '--hours', 'mon-fri 18:00-08:00', '--json'], env, 1, [
      /VALIDATION_FAILED/, /18:00-08:00/,
    ]),
    cliFails(t, ['garage', 'create', '--slug', 'bad-days', '--name', 'X', '--hours', 'monday 08:00-12:00', '--json'], env, 1, [/VALIDATION_FAILED/]),
    cliFails(t, ['garage', 'create', '--slug', 'bad-int', '--name', 'X', '--slot-minutes', '15.5', '--json'], env, 1, [/--slot-minutes/, /integer/]),
    cliFails(t, ['garage', 'create', '--slug', 'bad-int', '--name', 'X', '--capacity', 'two', '--json'], env, 1, [/--capacity/, /integer/]),
    cliFails(t, ['garage', 'create', '--slug', 'bad-range', '--name', 'X', '--slot-minutes', '7', '--capacity', '0', '--timezone', 'Mars/Olympus', '--json'], env, 1, [
      /VALIDATION_FAILED/, /\/slotMinutes: /, /\/capacity: /, /\/timezone: /,
    ]),
    cliFails(t, ['garage', 'create', '--slug', 'Not A Slug', '--name', 'X', '--json'], env, 1, [/\/slug: /]),
    cliFails(t, ['garage', 'create', '--slug', 'no-name', '--json'], env, 1, [/--name/]),
  ]);
  const rows = await query<{ slug: string }>('select slug from garages order by slug');
  t.same(rows.map((r) => r.slug), ['north', 'south']);
});

t.test('garage close prints {garage, from, to}', async (t) => {
  const closed = await cliJson(t, ['garage', 'close', '--garage', 'north', '--from', '2026-12-24', '--to', '2026-12-26', '--reason', 'Christmas'], env);
  t.same(closed, { garage: 'north', from: '2026-12-24', to: '2026-12-26' });
  t.same(Object.keys(closed), ['garage', 'from', 'to']);
  const rows = await query("select from_date::text as from, to_date::text as to, reason from garage_closures");
  t.same(rows, [{ from: '2026-12-24', to: '2026-12-26', reason: 'Christmas' }]);
  await Promise.all([
    cliFails(t, ['garage', 'close', '--garage', 'nowhere', '--from', '2026-12-24', '--to', '2026-12-26', '--json'], env, 2, [/NOT_FOUND/, /nowhere/]),
    cliFails(t, ['garage', 'close', '--garage', 'north', '--from', '2026-12-32', '--to', '2026-12-20', '--json'], env, 1, [/\/from: /]),
    cliFails(t, ['garage', 'close', '--garage', 'north', '--from', '2026-12-26', '--to', '2026-12-24', '--json'], env, 1, [/\/to: /]),
  ]);
});

t.test('integrations: create, list, rotate-key, revoke; keys and secrets are never stored in clear', async (t) => {
  const shop = await cliJson(t, [
    'integration', 'create', '--garage', 'north', '--name', 'Web shop', '--sync', 'appointments,catalog', '--webhook-url', 'https://shop.example/hooks',
  ], env);
  t.same(Object.keys(shop).sort(), ['apiKey', 'apiVersion', 'id', 'sandboxGarageSlug', 'testApiKey', 'testWebhookSecret', 'webhookSecret']);
  t.match(shop.testApiKey, /^[0-9a-f]{32}$/);
  t.not(shop.testApiKey, shop.apiKey, 'the test key is a key of its own');
  t.match(shop.testWebhookSecret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
  t.match(shop.sandboxGarageSlug, /^north-sandbox-[0-9a-f]{8}$/, 'the sandbox has a slug of its own');
  t.equal(shop.apiVersion, LATEST, 'pinned to the latest version');
  t.match(shop.id, UUID);
  t.match(shop.apiKey, /^[0-9a-f]{32}$/);
  t.match(shop.webhookSecret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
  const secretBytes = Buffer.from(shop.webhookSecret.slice('whsec_'.length), 'base64');
  t.equal(secretBytes.length, 32, 'webhook secret is base64 of 32 bytes');
  t.equal(secretBytes.toString('base64'), shop.webhookSecret.slice('whsec_'.length), 'canonical base64');

  const [human, unknownToggle, unknownGarage, badUrl] = await Promise.all([
    runCli(['integration', 'create', '--garage', 'north', '--name', 'Accounting'], env),
    cliFails(t, ['integration', 'create', '--garage', 'north', '--name', 'Typo', '--sync', 'appointments,stocks', '--json'], env, 1, [/--sync/, /"stocks"/]),
    cliFails(t, ['integration', 'create', '--garage', 'nowhere', '--name', 'Lost', '--json'], env, 2, [/NOT_FOUND/]),
    cliFails(t, ['integration', 'create', '--garage', 'north', '--name', 'Bad URL', '--webhook-url', 'ftp://x', '--json'], env, 1, [/\/webhookUrl: /]),
  ]);
  t.ok(unknownToggle && unknownGarage && badUrl);
  t.equal(human.code, 0);
  const shown = /^Created integration Accounting \((?<id>[0-9a-f-]{36})\), pinned to API version \d{4}-\d{2}-\d{2}\n {2}API key: +(?<apiKey>[0-9a-f]{32})\n {2}webhook secret: +(?<webhookSecret>whsec_\S+)\n {2}test API key: +(?<testApiKey>[0-9a-f]{32})\n {2}test webhook secret: +whsec_\S+\n {2}sandbox garageSlug: +\S+\n.*shown only once/.exec(human.stdout);
  t.ok(shown, 'without --json: the id, key and secret, with a warning that they are shown once', { stdout: human.stdout });
  const bare = { id: '', apiKey: '', webhookSecret: '', testApiKey: '', ...shown?.groups };

  const listed = await cliJson(t, ['integration', 'list', '--garage', 'north'], env);
  t.equal(listed.length, 2, 'failed creations wrote nothing');
  for (const item of listed) t.same(Object.keys(item), ['id', 'name', 'sync', 'webhookUrl', 'apiVersion', 'revoked', 'lastUsedAt', 'sandbox']);
  const byId = new Map<string, any>(listed.map((i: any) => [i.id, i]));
  const shopSandbox = { garageSlug: shop.sandboxGarageSlug, webhookUrl: null };
  t.same(byId.get(shop.id), { id: shop.id, name: 'Web shop', sync: ['appointments', 'catalog'], webhookUrl: 'https://shop.example/hooks', apiVersion: LATEST, revoked: false, lastUsedAt: null, sandbox: shopSandbox });
  t.match(byId.get(bare.id), { id: bare.id, name: 'Accounting', sync: [], webhookUrl: null, apiVersion: LATEST, revoked: false, lastUsedAt: null, sandbox: { garageSlug: /^north-sandbox-/, webhookUrl: null } }, 'no --sync: every toggle off');
  t.same(await cliJson(t, ['integration', 'list', '--garage', 'south'], env), []);

  const rotated = await cliJson(t, ['integration', 'rotate-key', shop.id], env);
  t.same(Object.keys(rotated).sort(), ['apiKey', 'id', 'previousKeyExpiresAt']);
  t.equal(rotated.id, shop.id);
  t.match(rotated.apiKey, /^[0-9a-f]{32}$/);
  t.not(rotated.apiKey, shop.apiKey, 'rotate-key issues a new key');
  const [stored] = await query<{ api_key_hash: string }>('select api_key_hash from integrations where id = $1', [shop.id]);
  t.equal(stored?.api_key_hash, createHash('sha256').update(rotated.apiKey).digest('hex'), 'only the SHA-256 of the new key is stored');

  t.same(await cliJson(t, ['integration', 'revoke', bare.id], env), { id: bare.id });
  const afterRevoke = await cliJson(t, ['integration', 'list', '--garage', 'north'], env);
  t.same(afterRevoke.map((i: any) => [i.id, i.revoked]).sort(), [[shop.id, false], [bare.id, true]].sort());
  const humanList = await runCli(['integration', 'list', '--garage', 'north'], env);
  t.match(humanList.stdout, `${bare.id}  Accounting  (revoked)\n  sync: none\n  webhook: none\n  API version: ${LATEST}\n  last used: never`);
  t.match(humanList.stdout, `${shop.id}  Web shop\n  sync: appointments, catalog\n  webhook: https://shop.example/hooks\n`);
  await Promise.all([
    cliFails(t, ['integration', 'rotate-key', bare.id, '--json'], env, 2, [/NOT_FOUND/]),
    cliFails(t, ['integration', 'revoke', '00000000-0000-4000-8000-000000000000', '--json'], env, 2, [/NOT_FOUND/]),
    cliFails(t, ['integration', 'revoke', 'not-a-uuid', '--json'], env, 1, [/UUID/]),
    cliFails(t, ['integration', 'list', '--garage', 'nowhere', '--json'], env, 2, [/NOT_FOUND/]),
  ]);

  const tables = await query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public'");
  const everything = (
    await Promise.all(tables.map(({ table_name }) => query<{ row: string }>(`select row_to_json(t)::text as row from "${table_name}" t`)))
  ).flat().map((r) => r.row).join('\n');
  t.match(everything, 'Web shop', 'the dump does hold the integrations');
  for (const clear of [shop.apiKey, rotated.apiKey, bare.apiKey, shop.testApiKey, bare.testApiKey, shop.testWebhookSecret, shop.webhookSecret, shop.webhookSecret.slice('whsec_'.length), bare.webhookSecret.slice('whsec_'.length)]) {
    t.notOk(everything.includes(clear), 'no column holds a key or secret in clear');
  }
});
