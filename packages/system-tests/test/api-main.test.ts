import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '@garage/postgres/testing';
import t from 'tap';
import { MAIN, startApi } from './support/processes.js';

t.test('embedded start: PGlite, demo data once, credentials file, working curl line', async (t) => {
  t.ok(existsSync(MAIN), 'dist/main.js exists (run the build first)');
  const dir = await mkdtemp(join(tmpdir(), 'garage-api-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const env = { PGLITE_DIR: join(dir, '.data', 'pglite') };

  const first = await startApi(t, env, { cwd: dir, readyWhen: /curl/ });
  const file = join(dir, '.data', 'demo-credentials.json');
  const credentials = JSON.parse(await readFile(file, 'utf8'));
  const apiKey = String(credentials.integrations[0].apiKey);
  t.match(apiKey, /^[0-9a-f]{32}$/, 'the demo key is in the credentials file');
  t.equal((await stat(file)).mode & 0o777, 0o600, 'readable by the operator only');
  // Off a terminal the log is JSON lines, which outlive the terminal: the key is never in one.
  t.notOk(first.lines.some((l) => JSON.stringify(l).includes(apiKey)), 'no log line holds the demo key');
  const demoLine = String(first.lines.find((l) => /curl/.test(String(l.msg)))?.msg);
  const curl = /curl -H "x-api-key: \$\(jq -r '\.integrations\[0\]\.apiKey' (.+)\)" (http:\/\/localhost:(\d+)\/api\/public\/products)/.exec(demoLine);
  t.ok(curl, `a curl line reading the key from the file: ${demoLine}`);
  const [, named, url, port] = curl ?? [];
  t.equal(named, file, 'the credentials file it names');
  t.equal(Number(port), first.port, 'with the port actually listened on');

  const res = await fetch(url as string, { headers: { 'x-api-key': apiKey } });
  t.equal(res.status, 200, 'the printed curl works');
  const body = (await res.json()) as { data: unknown[] };
  t.ok(body.data.length > 0, 'demo products are there');
  const fleet = await fetch(`http://127.0.0.1:${first.port}/api/public/fleet?garageSlug=demo`);
  t.equal(fleet.status, 200);
  t.match(credentials.integrations[0].testApiKey, /^[0-9a-f]{32}$/, 'the demo\'s test key is kept beside its live key');
  t.notOk(first.lines.some((l) => JSON.stringify(l).includes(credentials.integrations[0].testApiKey)), 'no log line holds the test key');
  t.equal(await first.stop(), 0, 'SIGTERM exits 0');

  const second = await startApi(t, env, { cwd: dir, readyWhen: /curl/ });
  t.equal(JSON.parse(await readFile(file, 'utf8')).integrations[0].apiKey, apiKey, 'the same demo key on every start');
  const products = await fetch(`http://127.0.0.1:${second.port}/api/public/products`, { headers: { 'x-api-key': apiKey } });
  const secondBody = (await products.json()) as { data: unknown[] };
  t.equal(secondBody.data.length, body.data.length, 'not seeded twice');
  t.equal(await second.stop(), 0);
});

t.test('with DATABASE_URL: migrates, seeds nothing, stops cleanly', async (t) => {
  const db = await createTestDatabase('apimain');
  t.teardown(() => db.drop());
  // createTestDatabase migrates; start from an empty schema to see main do it.
  await db.handle.db.schema.dropSchema('public').cascade().execute();
  await db.handle.db.schema.createSchema('public').execute();
  const started = await startApi(t, { DATABASE_URL: db.url, ENCRYPTION_KEY: randomBytes(32).toString('base64') });
  t.ok(started.lines.some((l) => l.msg === 'database migrated'), 'migrated at start');
  t.notOk(started.lines.some((l) => /curl|demo/i.test(String(l.msg))), 'no demo');
  const ready = await fetch(`http://127.0.0.1:${started.port}/health/ready`);
  t.equal(ready.status, 200);
  const demo = await fetch(`http://127.0.0.1:${started.port}/api/public/fleet?garageSlug=demo`);
  t.equal(demo.status, 404, 'no demo garage');
  // SIGTERM once the server has started on a request: that request is still answered.
  const inFlight = fetch(`http://127.0.0.1:${started.port}/health/ready`, { headers: { 'x-request-id': 'in-flight' } });
  while (!started.lines.some((l) => l.reqId === 'in-flight')) await new Promise((resolve) => setTimeout(resolve, 1));
  const code = await started.stop();
  t.equal((await inFlight).status, 200, 'the request in flight at SIGTERM was answered');
  t.equal(code, 0);
});

t.test('on a terminal, pnpm start prints readable lines and a demo-key banner that stands out', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'garage-tty-'));
  // The API runs under `script` in a session of its own: killing `script` ends it by SIGHUP a moment later, while it
  // may still write to its data directory, so the removal retries until it is gone.
  t.teardown(() => rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }));
  // `script` gives the process a pseudo-terminal, as a person's shell would.
  const child = spawn('script', ['-qfc', `"${process.execPath}" "${MAIN}"`, '/dev/null'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', PGLITE_DIR: join(dir, '.data', 'pglite') },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  t.teardown(() => void child.kill('SIGKILL'));
  const deadline = Date.now() + 60_000;
  while (!/Demo API key: [0-9a-f]{32}/.test(output) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  t.match(output, /={40,}\r?\n {2}Demo API key: [0-9a-f]{32}/, 'a banner with the key');
  // The test key's line comes right after; the banner is written in one piece, so it is whole once its key is there.
  const banner = /Demo API key: (\S+)\r?\n {2}Demo test key: (\S+) \(its sandbox\)\r?\n {2}Try: curl .*http:\/\/localhost:(\d+)\//.exec(output);
  t.ok(banner, 'the banner names the test key too, and its sandbox');
  const [, liveKey, testKey, port] = banner ?? [];
  t.not(testKey, liveKey, 'a key of its own');
  const sandboxed = await fetch(`http://127.0.0.1:${port}/api/public/products?limit=1`, { headers: { 'x-api-key': testKey ?? '' } });
  t.equal(sandboxed.status, 200, 'the test key is served');
  t.equal(sandboxed.headers.get('garage-mode'), 'test', 'in its sandbox');
  const live = await fetch(`http://127.0.0.1:${port}/api/public/products?limit=1`, { headers: { 'x-api-key': liveKey ?? '' } });
  t.equal(live.status, 200);
  t.equal(live.headers.get('garage-mode'), null, 'and the demo key on the live data');
  t.match(output, /INFO.*Server listening/, 'readable log lines');
  t.notMatch(output, /^\{"level"/m, 'not JSON on a terminal');
});
