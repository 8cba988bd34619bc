import { createHash } from 'node:crypto';
import t from 'tap';
import { cliFails, cliJson, LOOPBACK_WEBHOOKS, runCli } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

const { env, query } = await cliDatabase(t);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const pendingDelivery = async (integrationId: string, url: string) => {
  const [event] = await query<{ id: string }>(
    `insert into webhook_events (garage_id, type, payload) select garage_id, 'lead.created', '{}'::jsonb from integrations where id = $1 returning id`,
    [integrationId],
  );
  await query(`insert into webhook_deliveries (event_id, integration_id, url) values ($1, $2, $3)`, [event!.id, integrationId, url]);
};
const deliveries = (integrationId: string) =>
  query<{ url: string; status: string }>('select url, status from webhook_deliveries where integration_id = $1', [integrationId]);

t.test('a webhook URL naming an internal address or carrying credentials is refused as it is configured', async (t) => {
  await cliJson(t, ['garage', 'create', '--slug', 'inside', '--name', 'Inside'], env);
  const refusedUrls = [
    'http://127.0.0.1:9/hooks',
    'http://[::1]:9/hooks',
    'http://[::7f00:1]:9/hooks',
    'http://10.1.2.3/hooks',
    'http://192.168.1.10/hooks',
    'http://169.254.169.254/latest/meta-data/',
    'https://user:secret@shop.example/hooks',
  ];
  await Promise.all(
    refusedUrls.map((url) =>
      cliFails(t, ['integration', 'create', '--garage', 'inside', '--name', 'Inside', '--webhook-url', url, '--json'], env, 1, [/VALIDATION_FAILED/, /webhookUrl/]),
    ),
  );
  const allowed = { ...env, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,169.254.0.0/16' };
  const local = await cliJson(t, ['integration', 'create', '--garage', 'inside', '--name', 'Local', '--webhook-url', 'http://127.0.0.1:9/hooks'], allowed);
  t.same(await query('select webhook_url from integrations where id = $1', [local.id]), [{ webhook_url: 'http://127.0.0.1:9/hooks' }], 'allowed by WEBHOOK_ALLOWED_NETWORKS');
  // One after the other: each run is a process of its own.
  await cliFails(t, ['integration', 'update', local.id, '--webhook-url', 'http://169.254.169.254/', '--json'], allowed, 1, [/webhookUrl/]);
  await cliFails(t, ['integration', 'update', local.id, '--webhook-url', 'http://10.0.0.1/hooks', '--json'], { ...env, ...LOOPBACK_WEBHOOKS }, 1, [/webhookUrl/]);
  t.same(await query('select webhook_url from integrations where id = $1', [local.id]), [{ webhook_url: 'http://127.0.0.1:9/hooks' }], 'nothing changed');
  t.equal((await query("select count(*)::int as n from integrations where name = 'Inside'"))[0]?.n, 0, 'nothing created');
});

t.test('integration update changes what it is given and prints {id, name, sync, webhookUrl, apiVersion}', async (t) => {
  await cliJson(t, ['garage', 'create', '--slug', 'upd', '--name', 'Update'], env);
  const shop = await cliJson(t, ['integration', 'create', '--garage', 'upd', '--name', 'Shop', '--sync', 'catalog', '--webhook-url', 'https://old.example/hooks'], env);
  await pendingDelivery(shop.id, 'https://old.example/hooks');

  const renamed = await cliJson(t, ['integration', 'update', shop.id, '--name', 'Web shop'], env);
  t.same(renamed, { id: shop.id, name: 'Web shop', sync: ['catalog'], webhookUrl: 'https://old.example/hooks', apiVersion: '2026-11-26' });
  t.same(Object.keys(renamed), ['id', 'name', 'sync', 'webhookUrl', 'apiVersion']);
  t.same(await cliJson(t, ['integration', 'update', shop.id, '--sync', 'appointments,stock'], env), {
    id: shop.id, name: 'Web shop', sync: ['appointments', 'stock'], webhookUrl: 'https://old.example/hooks', apiVersion: '2026-11-26',
  });
  t.same((await cliJson(t, ['integration', 'update', shop.id, '--sync', ''], env)).sync, [], 'an empty list turns every toggle off');

  const moved = await cliJson(t, ['integration', 'update', shop.id, '--webhook-url', 'https://new.example/hooks'], env);
  t.equal(moved.webhookUrl, 'https://new.example/hooks');
  t.same(await deliveries(shop.id), [{ url: 'https://new.example/hooks', status: 'pending' }], 'pending deliveries follow the new URL');

  const removed = await cliJson(t, ['integration', 'update', shop.id, '--no-webhook-url'], env);
  t.equal(removed.webhookUrl, null);
  t.same(await deliveries(shop.id), [{ url: 'https://new.example/hooks', status: 'cancelled' }], 'and end as cancelled without one');

  const human = await runCli(['integration', 'update', shop.id, '--name', 'Shop'], env);
  t.equal(human.code, 0);
  t.match(human.stdout, `Updated integration ${shop.id}\n${shop.id}  Shop\n  sync: none\n  webhook: none`);

  await Promise.all([
    cliFails(t, ['integration', 'update', shop.id, '--webhook-url', 'ftp://x', '--json'], env, 1, [/VALIDATION_FAILED/, /webhookUrl/]),
    cliFails(t, ['integration', 'update', shop.id, '--sync', 'everything', '--json'], env, 1, [/unknown sync toggle/]),
    cliFails(t, ['integration', 'update', '00000000-0000-4000-8000-000000000000', '--name', 'x', '--json'], env, 2, [/NOT_FOUND/]),
    cliFails(t, ['integration', 'update', 'nope', '--json'], env, 1, [/UUID/]),
  ]);
  await cliJson(t, ['integration', 'revoke', shop.id], env);
  await cliFails(t, ['integration', 'update', shop.id, '--name', 'x', '--json'], env, 2, [/NOT_FOUND/]);
});

t.test('rotate-key --overlap-hours keeps the old key until previousKeyExpiresAt', async (t) => {
  const shop = await cliJson(t, ['integration', 'create', '--garage', 'upd', '--name', 'Keys'], env);
  const before = Date.now();
  const rotated = await cliJson(t, ['integration', 'rotate-key', shop.id, '--overlap-hours', '2'], env);
  t.same(Object.keys(rotated), ['id', 'apiKey', 'previousKeyExpiresAt']);
  const expires = Date.parse(rotated.previousKeyExpiresAt);
  t.ok(expires >= before + 2 * 3_600_000 - 1_000 && expires <= Date.now() + 2 * 3_600_000 + 1_000, 'two hours from now');
  const [row] = await query<{ api_key_hash: string; previous_api_key_hash: string; previous_key_expires_at: Date }>(
    'select api_key_hash, previous_api_key_hash, previous_key_expires_at from integrations where id = $1',
    [shop.id],
  );
  t.equal(row?.api_key_hash, sha256(rotated.apiKey));
  t.equal(row?.previous_api_key_hash, sha256(shop.apiKey), 'the old key is kept, as a hash, for the overlap');
  t.equal(row?.previous_key_expires_at.getTime(), expires);

  const atOnce = await cliJson(t, ['integration', 'rotate-key', shop.id], env);
  t.ok(Date.parse(atOnce.previousKeyExpiresAt) <= Date.now(), 'default 0: the old key stopped at once');
  const [after] = await query('select previous_api_key_hash from integrations where id = $1', [shop.id]);
  t.equal(after?.previous_api_key_hash, null);
  await Promise.all([
    cliFails(t, ['integration', 'rotate-key', shop.id, '--overlap-hours', '-1', '--json'], env, 1, [/--overlap-hours/]),
    cliFails(t, ['integration', 'rotate-key', shop.id, '--overlap-hours', '169', '--json'], env, 1, [/VALIDATION_FAILED/, /168/]),
  ]);
});

t.test('rotate-webhook-secret prints {id, webhookSecret, previousSecretExpiresAt} and keeps the old secret for 24 h by default', async (t) => {
  const shop = await cliJson(t, ['integration', 'create', '--garage', 'upd', '--name', 'Secrets', '--webhook-url', 'https://s.example/'], env);
  const rotated = await cliJson(t, ['integration', 'rotate-webhook-secret', shop.id], env);
  t.same(Object.keys(rotated), ['id', 'webhookSecret', 'previousSecretExpiresAt']);
  t.match(rotated.webhookSecret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
  t.not(rotated.webhookSecret, shop.webhookSecret);
  t.ok(Math.abs(Date.parse(rotated.previousSecretExpiresAt) - (Date.now() + 24 * 3_600_000)) < 60_000, '24 hours by default');
  const [row] = await query<{ current: string; previous: string }>(
    'select webhook_secret_ciphertext as current, previous_webhook_secret_ciphertext as previous from integrations where id = $1',
    [shop.id],
  );
  t.ok(row?.previous, 'the old secret is kept, encrypted');
  t.notMatch(JSON.stringify(row), /whsec_/, 'never in clear');
  const none = await cliJson(t, ['integration', 'rotate-webhook-secret', shop.id, '--overlap-hours', '0'], env);
  t.ok(Date.parse(none.previousSecretExpiresAt) <= Date.now());
  await cliFails(t, ['integration', 'rotate-webhook-secret', '00000000-0000-4000-8000-000000000000', '--json'], env, 2, [/NOT_FOUND/]);
});
