import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';

/** docs/reference/contract.md §7: `@redocly/cli lint` with the recommended rules (redocly.yaml) reports no error and no warning. */
const root = fileURLToPath(new URL('../../../', import.meta.url));

t.test('the committed OpenAPI document lints clean with the recommended rules', async (t) => {
  const { stdout, stderr } = await promisify(execFile)(`${root}node_modules/.bin/redocly`, ['lint', 'openapi/openapi.json', '--config', 'redocly.yaml'], {
    cwd: root,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const output = `${stdout}\n${stderr}`;
  t.match(output, /valid/, output);
  t.notMatch(output, /warning|error/i, 'no warning, no error');
});
