import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

const strangerEnv = (): NodeJS.ProcessEnv => {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|NODE_OPTIONS$|NODE_V8_COVERAGE$|TAP)/i.test(name)),
  );
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.startsWith(root) && !dir.includes('node_modules'))
    .join(delimiter);
  return { ...env, PATH: path };
};

/** What a connector developer gets from the registry: the packed tarball, installed by npm outside the workspace. */
t.test('the packed tarball installs and type-checks in an empty directory, for browsers and for Node', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'garage-client-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('pnpm', ['--filter', '@garage/client', 'pack', '--pack-destination', dir], { cwd: root, stdio: 'pipe', timeout: 120_000 });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  t.ok(tarball, 'pnpm pack made a tarball');
  const app = join(dir, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'connector', private: true, type: 'module' }));
  // As a stranger's shell runs it: the machine's own node and npm (not the workspace's Node, whose npm would miss the
  // machine's global npm configuration, certificates included), none of the variables pnpm gives its scripts, and
  // bounded in time.
  const cleanEnv = strangerEnv();
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, tarball!)], {
    cwd: app,
    stdio: 'pipe',
    env: cleanEnv,
    timeout: 180_000,
  });
  const installed = JSON.parse(readFileSync(join(app, 'node_modules/@garage/client/package.json'), 'utf8')) as Record<string, unknown>;
  t.notMatch(JSON.stringify(installed), /workspace:/, 'no workspace: dependency in the published manifest');

  const dist = join(app, 'node_modules/@garage/client/dist');
  const code = readdirSync(dist).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(dist, f), 'utf8')).join('\n');
  t.notMatch(code, /from ['"]node:|require\(['"]node:/, 'no Node-only import: it runs in browsers');

  writeFileSync(
    join(app, 'connector.ts'),
    `import { ApiError, createClient, verifyWebhook, type WebhookEvent } from '@garage/client';
const api = createClient({ baseUrl: 'http://localhost:3000', apiKey: 'key' });
export async function sync(): Promise<number> {
  let total = 0;
  for await (const product of api.products.list({ updatedSince: '2026-01-01T00:00:00Z' })) total += product.priceCents;
  const slots = await api.appointments.availability({ from: '2026-12-01', to: '2026-12-02', durationMinutes: 60 });
  try {
    const booked = await api.appointments.create({ startsAt: slots[0]!.startsAt, customer: { name: 'A', email: 'a@b.c' } });
    const cancelled = await api.appointments.cancel(booked.id, { reason: 'test' });
    if (cancelled.status !== 'cancelled') total -= 2;
  } catch (e) {
    if (e instanceof ApiError && e.code === 'SLOT_FULL') total -= 1;
  }
  return total;
}
export const receive = (secret: string, headers: Headers, body: string): string => {
  const event: WebhookEvent = verifyWebhook(secret, headers, body);
  if (event.type === 'appointment.created') return event.data.startsAt;
  return event.type;
};
`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: [],
      },
      files: ['connector.ts'],
    }),
  );
  const check = () => {
    try {
      execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, stdio: 'pipe', encoding: 'utf8', env: cleanEnv });
      return '';
    } catch (err) {
      return String((err as { stdout?: string }).stdout ?? err);
    }
  };
  t.equal(check(), '', 'type-checks with browser types only');

  const loaded = execFileSync('node', ['--input-type=module', '-e', "import('@garage/client').then((m) => console.log(Object.keys(m).sort().join(',')))"], {
    cwd: app,
    encoding: 'utf8',
    env: cleanEnv,
  });
  t.equal(loaded.trim(), 'API_VERSION,ApiError,createClient,verifyWebhook', "loads in the machine's Node");
});
