import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

/** The tests run the built CLI, exactly as `pnpm cli` does. */
export const CLI = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (pnpm build, or pnpm --filter @garage/cli test)`);

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type CliEnv = Record<string, string | undefined>;

/** Runs the CLI with the given database settings only: the caller's DATABASE_URL, PGLITE_DIR, … never leak in. */
export const runCli = (args: string[], env: CliEnv): Promise<CliResult> => {
  const childEnv: CliEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'PGLITE_DIR', 'ENCRYPTION_KEY', 'ENCRYPTION_KEY_PREVIOUS', 'WEBHOOK_ALLOWED_NETWORKS', 'DEBUG']) delete childEnv[name];
  Object.assign(childEnv, env);
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: childEnv, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : null;
      resolve({ code, stdout, stderr });
    });
  });
};

/** Runs a `--json` command that must succeed and print exactly one compact JSON document on stdout; returns it. */
export const cliJson = async (t: Test, args: string[], env: CliEnv): Promise<any> => {
  const result = await runCli([...args, '--json'], env);
  t.equal(result.code, 0, `exit 0: ${args.join(' ')}`, { stderr: result.stderr });
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    t.fail(`stdout of ${args.join(' ')} is one JSON document`, { stdout: result.stdout, stderr: result.stderr });
    return undefined;
  }
  t.equal(result.stdout, `${JSON.stringify(parsed)}\n`, `stdout of ${args.join(' ')} holds nothing but the JSON document`);
  return parsed;
};

/**
 * Runs a command that must fail: non-zero exit `code`, nothing on stdout (even with --json), a message on stderr
 * matching every pattern, and no stack trace.
 */
export const cliFails = async (t: Test, args: string[], env: CliEnv, code: number, patterns: RegExp[]): Promise<CliResult> => {
  const result = await runCli(args, env);
  t.equal(result.code, code, `exit ${code}: ${args.join(' ')}`, { stderr: result.stderr });
  t.equal(result.stdout, '', `nothing on stdout: ${args.join(' ')}`);
  for (const pattern of patterns) t.match(result.stderr, pattern, `stderr of ${args.join(' ')}`);
  t.notMatch(result.stderr, /\n\s+at /, 'no stack trace');
  return result;
};

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `WEBHOOK_ALLOWED_NETWORKS` for tests that configure a webhook URL on loopback, which is refused by default. */
export const LOOPBACK_WEBHOOKS = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' };
