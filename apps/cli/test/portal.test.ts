import { createHash } from 'node:crypto';
import t from 'tap';
import { cliFails, cliJson } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

/** `integration portal-link` and `integration audit` (docs/reference/contract.md §10). */
const { env, query } = await cliDatabase(t);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

t.before(async () => {
  await cliJson(t, ['garage', 'create', '--slug', 'portal', '--name', 'Portal'], env);
});

t.test('portal-link prints {url, expiresAt}: a single-use link in the fragment of PUBLIC_URL, stored as a hash', async (t) => {
  const created = await cliJson(t, ['integration', 'create', '--garage', 'portal', '--name', 'Connector'], env);
  const link = await cliJson(t, ['integration', 'portal-link', created.id], { ...env, PUBLIC_URL: 'https://api.example.com/' });
  t.same(Object.keys(link), ['url', 'expiresAt']);
  t.match(link.url, /^https:\/\/api\.example\.com\/portal\/login#token=[A-Za-z0-9_-]{43}$/);
  t.ok(Math.abs(Date.parse(link.expiresAt) - (Date.now() + 60 * 60_000)) < 60_000, '60 minutes by default');
  const token = link.url.split('#token=')[1];
  const rows = await query<{ token_hash: string }>('select token_hash from portal_links where integration_id = $1', [created.id]);
  t.same(rows.map((r) => r.token_hash), [sha256(token)], 'only the hash is stored');

  const short = await cliJson(t, ['integration', 'portal-link', created.id, '--ttl-minutes', '5'], env);
  t.match(short.url, /^http:\/\/localhost:3000\/portal\/login#token=/, 'http://localhost:PORT without PUBLIC_URL');
  t.ok(Date.parse(short.expiresAt) < Date.now() + 6 * 60_000);
  await cliFails(t, ['integration', 'portal-link', created.id, '--ttl-minutes', '0', '--json'], env, 1, [/VALIDATION_FAILED/]);
  await cliJson(t, ['integration', 'revoke', created.id], env);
  await cliFails(t, ['integration', 'portal-link', created.id, '--json'], env, 2, [/NOT_FOUND/]);
});

t.test('audit prints the portal actions, newest first', async (t) => {
  const created = await cliJson(t, ['integration', 'create', '--garage', 'portal', '--name', 'Audited'], env);
  t.same(await cliJson(t, ['integration', 'audit', created.id], env), []);
  await query("insert into portal_actions (integration_id, mode, action, detail, created_at) values ($1, 'live', 'webhook.url.update', '{\"url\": \"https://a.example/\"}', now() - interval '1 minute')", [created.id]);
  await query("insert into portal_actions (integration_id, mode, action, detail) values ($1, 'test', 'version.pin', '{\"from\": \"2026-11-21\", \"to\": \"2026-11-26\"}')", [created.id]);
  const audit = await cliJson(t, ['integration', 'audit', created.id], env);
  t.match(audit, [
    { at: String, mode: 'test', action: 'version.pin', detail: { from: '2026-11-21', to: '2026-11-26' } },
    { at: String, mode: 'live', action: 'webhook.url.update', detail: { url: 'https://a.example/' } },
  ]);
  t.same(Object.keys(audit[0]), ['at', 'mode', 'action', 'detail']);
});
