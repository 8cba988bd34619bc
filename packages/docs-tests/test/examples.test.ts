import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMarkdown, type CodeBlock } from '@garage/docs-render';
import t from 'tap';
import { startDemoApi } from './support/demo-api.js';
import { REPOSITORY_ROOT } from './support/link-check.js';

/**
 * Every `sh` and `ts` example of the connector guides runs, in the order of its guide, against the API with the demo
 * data, as a reader would run it: the shell blocks in one bash session (`set -euo pipefail`, so a failing command
 * or an HTTP error under `curl -f` fails the guide), each TypeScript block as a file run by Node (type stripping),
 * importing the workspace's @garage/client. The variables the guides name come from the environment; the demo
 * credentials are where `pnpm start` leaves them, in `.data/demo-credentials.json` of the working directory.
 */

const GUIDES_DIR = join(REPOSITORY_ROOT, 'docs', 'connectors');
/** Inside this package, so that the blocks' `@garage/client` resolves to the workspace's. */
const WORK_DIR = fileURLToPath(new URL('../.doc-examples/', import.meta.url));
const RUNNABLE = new Set(['sh', 'ts']);
const SCRIPT_LANGUAGES = new Set(['sh', 'bash', 'shell', 'zsh', 'console', 'ts', 'typescript', 'js', 'javascript', 'mjs']);
/** Blocks marked `no-run` (a server started in the foreground, an operator's command): kept rare on purpose. */
const MAX_NOT_RUN = 2;

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Monday to Friday of the week after next: open days inside the demo garage's notice and horizon. */
const bookableWeek = () => {
  const day = 86_400_000;
  const now = Date.now();
  const daysToMonday = ((8 - new Date(now).getUTCDay()) % 7 || 7) + 7;
  return { FROM: isoDate(now + daysToMonday * day), TO: isoDate(now + (daysToMonday + 4) * day) };
};

const run = (command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, output }));
  });

/** One bash script for the guide: its shell blocks inline, each TypeScript block run from a file of its own. */
const scriptOf = async (guide: string, blocks: CodeBlock[], dir: string) => {
  const lines = ['set -euo pipefail'];
  for (const block of blocks) {
    lines.push(`printf '\\n>>> ${guide}:${block.line} (${block.lang})\\n'`);
    if (block.lang === 'sh') lines.push(block.code);
    else {
      const file = `block-${block.line}.ts`;
      await writeFile(join(dir, file), block.code);
      lines.push(`node ${file}`);
    }
  }
  return `${lines.join('\n')}\n`;
};

t.test('the examples of the connector guides run against the demo API', async (t) => {
  const guides = (await readdir(GUIDES_DIR)).filter((name) => name.endsWith('.md')).sort();
  const parsed = await Promise.all(guides.map(async (name) => ({ name, blocks: parseMarkdown(await readFile(join(GUIDES_DIR, name), 'utf8')).codeBlocks })));

  const scripts = parsed.flatMap(({ name, blocks }) => blocks.filter((b) => SCRIPT_LANGUAGES.has(b.lang)).map((b) => ({ name, ...b })));
  const notRun = scripts.filter((b) => b.flags.includes('no-run'));
  t.ok(notRun.length <= MAX_NOT_RUN, `at most ${MAX_NOT_RUN} blocks are marked no-run: ${notRun.map((b) => `${b.name}:${b.line}`).join(', ')}`);
  for (const block of scripts.filter((b) => !RUNNABLE.has(b.lang))) {
    t.fail(`${block.name}:${block.line}: a ${block.lang} block; write examples as sh or ts so that they run`);
  }
  t.ok(scripts.filter((b) => !b.flags.includes('no-run')).length >= 20, 'the guides have examples to run');

  await rm(WORK_DIR, { recursive: true, force: true });
  t.teardown(() => rm(WORK_DIR, { recursive: true, force: true }));

  for (const { name, blocks } of parsed) {
    const runnable = blocks.filter((b) => RUNNABLE.has(b.lang) && !b.flags.includes('no-run'));
    if (runnable.length === 0) continue;
    await t.test(name, async (t) => {
      const api = await startDemoApi(t);
      const dir = join(WORK_DIR, name.replace(/\.md$/, ''));
      await mkdir(join(dir, '.data'), { recursive: true });
      await writeFile(join(dir, '.data', 'demo-credentials.json'), JSON.stringify(api.credentials, null, 2));
      await writeFile(join(dir, 'guide.sh'), await scriptOf(name, runnable, dir));
      const { code, output } = await run('bash', ['guide.sh'], dir, {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? dir,
        BASE_URL: api.url,
        GARAGE_API_KEY: api.credentials.integrations[0]!.apiKey,
        WEBHOOK_SECRET: api.credentials.integrations[0]!.webhookSecret,
        WEBHOOK_PORT: String(api.webhookPort),
        ...bookableWeek(),
      });
      const failedAt = [...output.matchAll(/^>>> (\S+)/gm)].at(-1)?.[1];
      t.equal(code, 0, code === 0 ? `${runnable.length} examples ran` : `the example at ${failedAt} failed:\n${output.slice(-4000)}`);
    });
  }
});
