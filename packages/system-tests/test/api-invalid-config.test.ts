import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';

/** The parsing rules are tested with the configuration package (packages/config); here, what the API process does. */
const MAIN = fileURLToPath(new URL('../../../apps/api/dist/main.js', import.meta.url));

t.test('the process stops at start with the message and exit code 1', async (t) => {
  t.ok(existsSync(MAIN), 'dist/main.js exists (run the build first)');
  for (const [env, variable] of [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ ENCRYPTION_KEY: 'c2hvcnQ=' }, 'ENCRYPTION_KEY'],
    [{ DATABASE_URL: 'postgres://127.0.0.1:1/none' }, 'ENCRYPTION_KEY'],
    // Trusting every proxy hop would let any client choose the address every limit counts.
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ WEBHOOK_ALLOWED_NETWORKS: 'intranet' }, 'WEBHOOK_ALLOWED_NETWORKS'],
  ] as const) {
    const run = spawnSync(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });
    t.equal(run.status, 1, `${variable}: exit code`);
    t.match(run.stderr, new RegExp(`^Invalid configuration: ${variable} `), `${variable}: message on stderr`);
    t.equal(run.stderr.trim().split('\n').length, 1, 'one line, no stack trace');
    t.equal(run.stdout, '', 'nothing started');
  }
});
