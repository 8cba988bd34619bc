import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { parse } from 'yaml';
import { loadConfig } from '@garage/api';

/**
 * No Docker engine runs where the tests run: this checks what can be checked without one, i.e. that docker/ agrees
 * with the code it deploys (variable names, commands, paths) and that haproxy accepts its configuration.
 */

const docker = (file: string) => fileURLToPath(new URL(`../../../docker/${file}`, import.meta.url));
const app = (path: string) => fileURLToPath(new URL(`../../../apps/${path}`, import.meta.url));

interface Service {
  command?: string[];
  image?: string;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  healthcheck?: { disable?: boolean };
  volumes?: string[];
  ports?: string[];
  read_only?: boolean;
  tmpfs?: string[];
}

const compose = parse(await readFile(docker('compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const { services } = compose;

/** What Compose makes of `${NAME:?message}` and `${NAME:-default}` when the operator sets the given variables. */
const interpolate = (environment: Record<string, string>, shell: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(environment).map(([name, value]) => [
      name,
      value.replace(/\$\{(\w+)(?::[?-][^}]*)?\}/g, (_m, variable: string) => shell[variable] ?? ''),
    ]),
  );

t.test('compose: the topology the README describes', async (t) => {
  t.same(Object.keys(services).sort(), ['api', 'lb', 'migrate', 'postgres', 'redis', 'worker']);
  t.equal(services.api?.deploy?.replicas, 3, 'three API replicas');
  t.match(services.lb?.image, /^haproxy:2\.6/);
  t.ok(services.lb?.volumes?.some((v) => v.startsWith('./haproxy.cfg:')), 'haproxy runs docker/haproxy.cfg');
  t.same(services.migrate?.command?.slice(-2), ['migrate', '--json']);
  for (const name of ['migrate', 'worker']) t.equal(services[name]?.healthcheck?.disable, true, `${name}: no HTTP health check`);
});

t.test('compose: the API replicas are configured with variables the API knows', async (t) => {
  const key = randomBytes(32).toString('base64');
  const env = interpolate(services.api?.environment ?? {}, { ENCRYPTION_KEY: key });
  const config = loadConfig(env);
  t.match(config.databaseUrl, /^postgres:\/\/.*@postgres:5432\//);
  t.equal(config.redisUrl, 'redis://redis:6379', 'rate limits shared through Redis');
  t.equal(config.encryptionKey, key);
  t.same(config.previousEncryptionKeys, [], 'no former key unless the operator sets one');
  t.equal(config.trustProxy, 1, 'haproxy is the one trusted hop');
  t.equal(config.migrateOnStart, false, 'the migrate job migrates, once');
  t.equal(config.deliverWebhooks, false, 'the worker delivers webhooks');
  const previous = randomBytes(32).toString('base64');
  t.same(loadConfig(interpolate(services.api?.environment ?? {}, { ENCRYPTION_KEY: key, ENCRYPTION_KEY_PREVIOUS: previous })).previousEncryptionKeys, [previous]);
});

t.test('compose and Dockerfile: every command runs a program the build produces', async (t) => {
  const dockerfile = await readFile(docker('Dockerfile'), 'utf8');
  const cmd = /^CMD \["node", "([^"]+)"\]/m.exec(dockerfile)?.[1];
  const programs = [cmd, services.migrate?.command?.[1], services.worker?.command?.[1]];
  t.same(programs, ['api/dist/main.js', 'cli/dist/main.js', 'worker/dist/main.js']);
  for (const program of programs) {
    const name = String(program).split('/')[0] as string;
    t.match(dockerfile, new RegExp(`pnpm deploy --legacy --filter=@garage/${name} --prod /out/${name}\\b`), `${name} is deployed`);
    t.ok(existsSync(app(`${name}/${String(program).slice(name.length + 1)}`)), `apps/${name} builds ${program}`);
  }
});

t.test('Dockerfile: the memory budget that pnpm bench measures, also in the Kubernetes API deployment and pnpm start', async (t) => {
  const dockerfile = await readFile(docker('Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const options = /NODE_OPTIONS="([^"]*)"/.exec(runtime)?.[1] ?? '';
  t.match(options, /--max-old-space-size=\d+/, 'the old generation is bounded');
  t.match(options, /--max-semi-space-size=\d+/, 'the young generation is bounded');
  const arenas = /MALLOC_ARENA_MAX=(\d+)/.exec(runtime)?.[1];
  t.ok(arenas, "glibc's arenas are bounded");
  const mmapThreshold = /MALLOC_MMAP_THRESHOLD_=(\d+)/.exec(runtime)?.[1];
  t.ok(mmapThreshold, 'large blocks are mapped on their own, and returned when freed');
  const { imageMemoryEnv, startScriptEnv, startScriptFlags } = (await import(app('../scripts/bench/servers.js'))) as {
    imageMemoryEnv: () => Record<string, string>;
    startScriptEnv: () => Record<string, string>;
    startScriptFlags: () => string[];
  };
  t.same(
    imageMemoryEnv(),
    { NODE_OPTIONS: options, MALLOC_ARENA_MAX: arenas, MALLOC_MMAP_THRESHOLD_: mmapThreshold },
    'pnpm bench starts the API with these settings',
  );
  // pnpm start: the image's young generation, and a floor under the old generation's limit (docs/operators/performance.md,
  // "Memory"). V8 takes the smaller of the initial size and half the maximum, so a larger initial size is no floor.
  const flag = (flags: string, name: string) => Number(new RegExp(`--${name}=(\\d+)`).exec(flags)?.[1]);
  const start = startScriptFlags().join(' ');
  t.equal(flag(start, 'max-semi-space-size'), flag(options, 'max-semi-space-size'), "pnpm start's young generation is the image's");
  const initial = flag(start, 'initial-old-space-size');
  t.ok(initial > 0 && initial * 2 <= flag(start, 'max-old-space-size'), "pnpm start's floor under the old generation's limit is at most half its maximum");
  // One arena, as the image; not the image's mmap threshold, which costs the sync page CPU (performance.md, "Memory").
  t.same(startScriptEnv(), { MALLOC_ARENA_MAX: arenas }, "pnpm start bounds glibc's arenas as the image does");
  const deployment = await readFile(app('../deploy/kubernetes/base/api-deployment.yaml'), 'utf8');
  t.match(deployment, new RegExp(`name: NODE_OPTIONS\\s+value: ${options}\\n`), 'the Kubernetes API runs with the same budget');
  // The operators' guides quote both budgets word for word, so a change to either shows here first.
  const guide = async (name: string) => (await readFile(app(`../docs/operators/${name}`), 'utf8')).replace(/\s+/g, ' ');
  const performance = await guide('performance.md');
  t.ok(
    performance.includes(`\`pnpm start\` runs the API with \`${start}\` and \`MALLOC_ARENA_MAX=${arenas}\``),
    "performance.md quotes pnpm start's flags and allocator setting",
  );
  t.ok(performance.includes(`\`node ${start} dist/main.js\``), 'performance.md gives the same flags for the image');
  t.ok(performance.includes(`a tighter budget: \`${options}\``), "performance.md quotes the image's budget");
  t.ok((await guide('deployment.md')).includes(`NODE_OPTIONS="${options}"`), "deployment.md quotes the image's budget");
});

t.test('Dockerfile: a numeric non-root user and a health check that needs no curl', async (t) => {
  const dockerfile = await readFile(docker('Dockerfile'), 'utf8');
  // The runtime stage, continuation lines joined.
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')).replace(/\\\n\s*/g, ' ');
  const users = [...runtime.matchAll(/^USER (.+)$/gm)].map((m) => m[1]?.trim());
  t.equal(users.length, 1, 'one USER in the runtime stage');
  const [uid, gid] = String(users[0]).split(':').map(Number);
  t.ok(Number.isInteger(uid) && Number(uid) > 0, `numeric, non-root uid (runAsNonRoot can verify it): ${users[0]}`);
  t.ok(gid === undefined || (Number.isInteger(gid) && gid > 0), 'numeric, non-root gid');
  t.notMatch(runtime, /--chown=/, 'the code is not writable by the process');

  const healthcheck = /^HEALTHCHECK (.*)$/m.exec(runtime)?.[1] ?? '';
  t.notMatch(healthcheck, /\b(curl|wget)\b/, 'the slim image has no HTTP client');
  const script = /CMD node -e "([^"]+)"$/.exec(healthcheck)?.[1];
  t.ok(script, 'HEALTHCHECK runs node');
  t.match(script, /\/health\/live/, 'liveness: a Postgres outage must not mark every container unhealthy');

  // The check itself, run as Docker would (PORT from the image's environment) against a server that answers
  // 200, then 503, then is gone.
  let status = 200;
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(String(req.url));
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = String(typeof address === 'object' && address ? address.port : 0);
  const check = () =>
    promisify(execFile)(process.execPath, ['-e', String(script)], { env: { PORT: port } }).then(
      () => 0,
      (err: { code?: number }) => err.code ?? -1,
    );
  t.equal(await check(), 0, 'healthy while /health/live answers 200');
  status = 503;
  t.equal(await check(), 1, 'unhealthy on an error status');
  await new Promise((resolve) => server.close(resolve));
  t.equal(await check(), 1, 'unhealthy when nothing listens');
  t.same(paths, ['/health/live', '/health/live']);
});

t.test('compose: the app containers run with a read-only root filesystem', async (t) => {
  for (const name of ['migrate', 'api', 'worker']) {
    t.equal(services[name]?.read_only, true, `${name}: read_only`);
    t.same(services[name]?.tmpfs, ['/tmp'], `${name}: only /tmp is writable`);
    t.notOk(services[name]?.environment?.PGLITE_DIR, `${name}: no embedded database directory is needed`);
    t.match(services[name]?.environment?.DATABASE_URL, /^postgres:\/\//, `${name}: Postgres, so nothing is written to disk`);
  }
});

t.test('haproxy accepts docker/haproxy.cfg', async (t) => {
  const haproxy = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'].find((path) => existsSync(path));
  if (!haproxy) throw new Error('haproxy is not installed (.ci/system-deps installs it)');
  const { stdout } = await promisify(execFile)(haproxy, ['-c', '-f', docker('haproxy.cfg')]);
  t.match(stdout, /Configuration file is valid/);
});

t.test('the image installs every workspace package: each manifest is copied before `pnpm install --frozen-lockfile`', async (t) => {
  const dockerfile = await readFile(docker('Dockerfile'), 'utf8');
  const install = dockerfile.indexOf('pnpm install --frozen-lockfile');
  const copied = new Set([...dockerfile.slice(0, install).matchAll(/^COPY (\S+)\/package\.json /gm)].map((m) => m[1]));
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const workspace: string[] = [];
  for (const dir of ['apps', 'packages', 'examples']) {
    for (const name of await readdir(`${root}${dir}`)) if (existsSync(`${root}${dir}/${name}/package.json`)) workspace.push(`${dir}/${name}`);
  }
  t.ok(workspace.length >= 8);
  t.same(workspace.filter((p) => !copied.has(p)), [], 'no workspace package is missing from the install layer');
});

t.test('.dockerignore keeps local data and env files of every package out of the build context', async (t) => {
  const ignored = (await readFile(fileURLToPath(new URL('../../../.dockerignore', import.meta.url)), 'utf8')).split('\n').map((line) => line.trim());
  // `**/` matches at any depth, the root included: apps/api/.data and apps/api/.env are as local as the root's.
  for (const pattern of ['**/.data', '**/.env', '**/.env.*', '**/node_modules']) t.ok(ignored.includes(pattern), pattern);
  t.notOk(ignored.includes('.data'), 'not only the root .data');
});
