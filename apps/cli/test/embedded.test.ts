import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { cliJson, runCliProcess, UUID } from './helpers/cli.js';

// No DATABASE_URL: the CLI runs on the embedded Postgres under PGLITE_DIR, like `pnpm start` without configuration.
const dir = join(t.testdir(), 'pglite');
const env = { PGLITE_DIR: dir };

t.test('embedded mode: migrate, then commands against the same PGlite directory', async (t) => {
  // The built binary, as an operator runs it; the later commands run the same program in this process.
  const first = await runCliProcess(['migrate', '--json'], env);
  t.equal(first.code, 0, 'migrate', { stderr: first.stderr });
  const { migrated } = JSON.parse(first.stdout);
  t.ok(Array.isArray(migrated) && migrated.length > 0 && migrated.every((name: unknown) => typeof name === 'string'), 'a fresh database gets every migration');
  t.equal(first.stdout, `${JSON.stringify({ migrated })}\n`, 'warnings (if any) stay on stderr');
  t.ok(existsSync(dir) && readdirSync(dir).length > 0, 'the data lives under PGLITE_DIR');

  const garage = await cliJson(t, ['garage', 'create', '--slug', 'embedded', '--name', 'Embedded'], env);
  t.match(garage, { id: UUID, slug: 'embedded' });
  const integration = await cliJson(t, ['integration', 'create', '--garage', 'embedded', '--name', 'Shop', '--sync', 'stock'], env);
  t.match(integration.apiKey, /^[0-9a-f]{32}$/);
  t.same(await cliJson(t, ['integration', 'list', '--garage', 'embedded'], env), [
    {
      id: integration.id,
      name: 'Shop',
      sync: ['stock'],
      webhookUrl: null,
      apiVersion: '2026-11-26',
      revoked: false,
      lastUsedAt: null,
      sandbox: { garageSlug: integration.sandboxGarageSlug, webhookUrl: null },
    },
  ]);
  const reset = await cliJson(t, ['integration', 'sandbox-reset', integration.id], env);
  t.equal(reset.id, integration.id, 'a sandbox resets on PGlite too');
});
