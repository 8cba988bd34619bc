import t from 'tap';
import { cliFails, cliJson, runCli } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

const { env, query } = await cliDatabase(t);
const FIRST = '2026-11-21';
const LATEST = '2026-11-26';

/** docs/reference/contract.md §6, §8: pinning integrations to API versions from the CLI. */
t.test('create pins to the latest or to --api-version; update moves the pin both ways; list shows it', async (t) => {
  await cliJson(t, ['garage', 'create', '--slug', 'pins', '--name', 'Pins'], env);
  const latest = await cliJson(t, ['integration', 'create', '--garage', 'pins', '--name', 'New connector'], env);
  t.equal(latest.apiVersion, LATEST);
  const pinned = await cliJson(t, ['integration', 'create', '--garage', 'pins', '--name', 'Old connector', '--api-version', FIRST], env);
  t.equal(pinned.apiVersion, FIRST);

  const down = await cliJson(t, ['integration', 'update', latest.id, '--api-version', FIRST], env);
  t.same(down, { id: latest.id, name: 'New connector', sync: [], webhookUrl: null, apiVersion: FIRST }, 'down');
  t.equal((await cliJson(t, ['integration', 'update', latest.id, '--api-version', LATEST], env)).apiVersion, LATEST, 'and up');
  const [row] = await query<{ api_version: string }>('select api_version from integrations where id = $1', [latest.id]);
  t.equal(row!.api_version, LATEST, 'stored');

  const listed = await cliJson(t, ['integration', 'list', '--garage', 'pins'], env);
  t.same(listed.map((i: { name: string; apiVersion: string }) => [i.name, i.apiVersion]), [['New connector', LATEST], ['Old connector', FIRST]]);
  const human = await runCli(['integration', 'list', '--garage', 'pins'], env);
  t.match(human.stdout, `  API version: ${FIRST}`);

  await Promise.all([
    cliFails(t, ['integration', 'update', latest.id, '--api-version', '2020-01-01', '--json'], env, 1, [/unsupported API version "2020-01-01"/, /2026-11-21, 2026-11-26/]),
    cliFails(t, ['integration', 'create', '--garage', 'pins', '--name', 'x', '--api-version', 'latest', '--json'], env, 1, [/unsupported API version/]),
  ]);
  t.equal((await cliJson(t, ['integration', 'list', '--garage', 'pins'], env)).length, 2, 'nothing created by the refused command');
});

t.test('versions --json lists every version with its changes, deprecation and pinned integrations', async (t) => {
  await cliJson(t, ['garage', 'create', '--slug', 'counted', '--name', 'Counted'], env);
  const revoked = await cliJson(t, ['integration', 'create', '--garage', 'counted', '--name', 'Gone', '--api-version', FIRST], env);
  await cliJson(t, ['integration', 'revoke', revoked.id], env);
  const before = await cliJson(t, ['versions'], env);
  t.same(before.map((v: { version: string }) => v.version), [FIRST, LATEST], 'oldest first');
  for (const v of before) t.same(Object.keys(v), ['version', 'changes', 'deprecated', 'sunsetAt', 'integrations']);
  t.same(before[0], { version: FIRST, changes: [], deprecated: false, sunsetAt: null, integrations: before[0].integrations });
  t.equal(before[1].changes.length, 2, 'the one-envelope change and the lead event change');
  t.match(before[1].changes.join('\n'), /\{"data": appointment\}/);
  t.match(before[1].changes.join('\n'), /lead\.created/);

  await cliJson(t, ['integration', 'create', '--garage', 'counted', '--name', 'Another'], env);
  const after = await cliJson(t, ['versions'], env);
  t.equal(after[1].integrations, before[1].integrations + 1, 'a new integration counts on the latest');
  t.equal(after[0].integrations, before[0].integrations, 'revoked integrations are not counted');
  const human = await runCli(['versions'], env);
  t.equal(human.code, 0);
  t.match(human.stdout, `${LATEST} (latest)`);
});
