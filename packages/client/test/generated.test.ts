import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

/** The committed types are what openapi-typescript makes of the committed document: `pnpm openapi` regenerates both. */
t.test('src/generated/openapi.ts is up to date with openapi/openapi.json', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'client-types-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const cli = fileURLToPath(new URL('../node_modules/openapi-typescript/bin/cli.js', import.meta.url));
  const document = fileURLToPath(new URL('../../../openapi/openapi.json', import.meta.url));
  const out = join(dir, 'openapi.ts');
  const run = spawnSync(process.execPath, [cli, document, '-o', out], { encoding: 'utf8' });
  t.equal(run.status, 0, run.stderr);
  const committed = readFileSync(new URL('../src/generated/openapi.ts', import.meta.url), 'utf8');
  t.ok(readFileSync(out, 'utf8') === committed, 'regenerate with `pnpm openapi` and commit the result');
});
