import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import type { run as Run } from '../../src/program.js';

/** The built CLI, exactly as `pnpm cli` runs it. */
export const CLI = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (pnpm build, or pnpm --filter @garage/cli test)`);

// The same program main.js runs, called in this process: a command costs its database work, not a Node start-up.
const { run } = (await import(new URL('../../dist/program.js', import.meta.url).href)) as { run: typeof Run };

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type CliEnv = Record<string, string | undefined>;

/** The caller's DATABASE_URL, PGLITE_DIR, … never leak into a command: only the settings a test gives. */
const commandEnv = (env: CliEnv): CliEnv => {
  const result: CliEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'PGLITE_DIR', 'ENCRYPTION_KEY', 'ENCRYPTION_KEY_PREVIOUS', 'WEBHOOK_ALLOWED_NETWORKS', 'DEBUG']) delete result[name];
  return Object.assign(result, env);
};

/** Runs a command of the CLI with the given settings and collects its exit code and output. */
export const runCli = async (args: string[], env: CliEnv): Promise<CliResult> => {
  let stdout = '';
  let stderr = '';
  const code = await run([process.execPath, CLI, ...args], commandEnv(env), {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
};

/** Runs the CLI as its own process, as an operator's shell does: for what only a process shows (exit status, streams). */
export const runCliProcess = (args: string[], env: CliEnv): Promise<CliResult> =>
  new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: commandEnv(env), timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : null;
      resolve({ code, stdout, stderr });
    });
  });

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
