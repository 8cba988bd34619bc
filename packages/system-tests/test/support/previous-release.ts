import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The release deployed before this one: the commit whose API serves while this release's migrations run
 * (docs/operators/deployment.md). Moved to the released commit at each release.
 */
export const PREVIOUS_RELEASE = '76ec52d';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface Release {
  commit: string;
  apiMain: string;
  cliMain: string;
}

/** pnpm as the test runner was started with it (`pnpm test` sets npm_execpath), or the one on the PATH. */
const pnpm = (args: string[], cwd: string) => {
  const execPath = process.env['npm_execpath'];
  return execPath && /pnpm/.test(execPath)
    ? run(process.execPath, [execPath, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 })
    : run('pnpm', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
};

/**
 * The previous release, checked out from this repository's history (`git worktree add`) and built as operators build
 * it (`pnpm install --offline --frozen-lockfile`, which builds), in the system's temporary directory. Kept there,
 * marked as built, for later runs on the same machine; turbo's cache, which a worktree shares with the main checkout,
 * makes a first build fast when that commit was built here before.
 */
export const previousRelease = async (commit = PREVIOUS_RELEASE): Promise<Release> => {
  const dir = join(tmpdir(), `garage-release-${commit}`);
  const built = join(dir, '.garage-release-built');
  const release = { commit, apiMain: join(dir, 'apps/api/dist/main.js'), cliMain: join(dir, 'apps/cli/dist/main.js') };
  if (existsSync(built)) return release;
  await rm(dir, { recursive: true, force: true });
  await run('git', ['-C', ROOT, 'worktree', 'prune']);
  await run('git', ['-C', ROOT, 'worktree', 'add', '--detach', dir, commit]);
  await pnpm(['install', '--offline', '--frozen-lockfile'], dir);
  if (!existsSync(release.apiMain) || !existsSync(release.cliMain)) throw new Error(`building ${commit} in ${dir} left no API or CLI build`);
  await writeFile(built, `${new Date().toISOString()}\n`);
  return release;
};
