// The processes under test: the API as operators run it (apps/api/dist/main.js) and the bare Fastify route that
// serves the same bytes, each in a process of its own, both listening on 127.0.0.1 only.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { setCpuList } from './api-apart.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A port that was free a moment ago; the child binds it right away. */
export const freePort = async () => {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
};

const prefixLines = (stream, prefix) => {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) process.stderr.write(`${prefix} ${line}\n`);
  });
};

/** Every process started and not yet exited, so that an interrupted run can stop them all. */
const running = new Set();

/** Stops every process this module started that is still running. */
export const stopAll = () => Promise.all([...running].map((proc) => proc.stop()));

/**
 * Starts `node <args>` with `env`. Its stderr is forwarded with a prefix; its stdout (the request log) goes to
 * `logFile` when given, as a log shipper would read it: relaying every line through this process would take CPU from
 * the server under test and let a slow pipe fill the server's log buffer. `stop` sends SIGTERM (the API then closes
 * gracefully) and waits for the exit, killing after 15 s.
 */
const startProcess = (name, args, env, logFile = null) => {
  const stdout = logFile === null ? 'pipe' : openSync(logFile, 'w');
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', stdout, 'pipe'] });
  if (logFile === null) prefixLines(child.stdout, `[${name}]`);
  else closeSync(stdout);
  prefixLines(child.stderr, `[${name}]`);
  const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));
  const proc = {
    child,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
};

/** Polls `url` until it answers 200; fails if the process exits first or after `timeoutMs`. */
const waitFor = async (proc, url, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  proc.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${url}: the process exited before answering`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${url}: no 200 within ${timeoutMs} ms`);
};

/**
 * The memory settings docker/Dockerfile gives the processes of the image: NODE_OPTIONS (V8's heap) and every
 * MALLOC_* tunable of glibc's allocator it sets, as `{ name: value }`.
 */
export const imageMemoryEnv = () => {
  const runtime = readFileSync(join(root, 'docker/Dockerfile'), 'utf8').split(/^FROM /m).at(-1) ?? '';
  const env = {};
  for (const [, name, value] of runtime.matchAll(/\b(NODE_OPTIONS|MALLOC_[A-Z_]+)=("[^"]*"|\S+)/g)) {
    env[name] = value.replace(/^"|"$/g, '');
  }
  if (env.NODE_OPTIONS === undefined) throw new Error('docker/Dockerfile sets no NODE_OPTIONS');
  return env;
};

/**
 * How `pnpm start` runs the API, read from the root package.json's `start` script: the variables set before `node`
 * and the flags between `node` and `apps/api/dist/main.js`. What a newcomer runs.
 */
const startScript = () => {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const match = /((?:\b[A-Z_]+=\S+ )*)node((?: --\S+)*) apps\/api\/dist\/main\.js/.exec(scripts.start ?? '');
  if (!match) throw new Error('the start script of package.json does not run node apps/api/dist/main.js');
  return { env: match[1], flags: match[2] };
};

/** The Node flags of `pnpm start`, read from package.json. */
export const startScriptFlags = () => startScript().flags.split(' ').filter(Boolean);

/** The environment `pnpm start` sets before `node` (the allocator's settings), read from package.json. */
export const startScriptEnv = () =>
  Object.fromEntries(startScript().env.split(' ').filter(Boolean).map((assignment) => assignment.split('=')));

/** What the API and the worker both run with: production mode, loopback only, metrics on any free port. */
const serviceEnv = (port, databaseUrl, encryptionKey) => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: String(port),
  METRICS_PORT: '0',
  DATABASE_URL: databaseUrl,
  ENCRYPTION_KEY: encryptionKey,
});

/**
 * The API against the bench database and Redis, logging at info as operators run it, into `logFile`, with `env` added.
 * TRUST_PROXY names the loopback address: the lead scenario sends a distinct X-Forwarded-For per request so that the
 * per-IP limit of 5 leads a minute measures the endpoint rather than the limiter's 429s.
 */
export const startApi = async ({ databaseUrl, redisUrl, encryptionKey, inspect = false, logFile, env = {}, asStarted = false, cpus = null }) => {
  const port = await freePort();
  // The inspector, on loopback, lets the bench profile one scenario at a time (inspector.js).
  const inspectPort = inspect ? await freePort() : null;
  // The image's memory settings; BENCH_NODE_FLAGS replaces its NODE_OPTIONS to try others, e.g.
  // `BENCH_NODE_FLAGS=--max-old-space-size=512` to see speed against memory.
  // `asStarted`: the flags and the allocator settings of `pnpm start` instead (docs/operators/performance.md, "Memory").
  const { NODE_OPTIONS, ...image } = imageMemoryEnv();
  const allocator = asStarted ? startScriptEnv() : image;
  const flags = asStarted ? startScriptFlags() : (process.env.BENCH_NODE_FLAGS ?? NODE_OPTIONS).split(' ').filter(Boolean);
  const args = [...flags, ...(inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [])];
  const proc = startProcess('api', [...args, 'apps/api/dist/main.js'], {
    ...serviceEnv(port, databaseUrl, encryptionKey),
    ...allocator,
    REDIS_URL: redisUrl,
    // Measured as operators run it: one info line per request.
    LOG_LEVEL: 'info',
    TRUST_PROXY: '127.0.0.1',
    // What a mode of the bench adds (tracing.js: the OTLP variables).
    ...env,
  }, logFile);
  // `cpus`: the CPUs the API runs on alone (run.js, --api-apart).
  if (cpus !== null) setCpuList(proc.child.pid, cpus);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(proc, `${url}/health/ready`, 120_000);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { url, pid: proc.child.pid, inspectPort, memorySettings: [`NODE_OPTIONS="${flags.join(' ')}"`, ...Object.entries(allocator).map(([name, value]) => `${name}=${value}`)].join(' '), stop: () => proc.stop() };
};

/** The machine's ceiling: a Fastify route answering with a fixed body, read from `bodyFile`. */
export const startBare = async ({ bodyFile }) => {
  const port = await freePort();
  const proc = startProcess('bare', ['scripts/bench/bare-server.js'], {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    BODY_FILE: bodyFile,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(proc, `${url}/products`, 30_000);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { url, pid: proc.child.pid, stop: () => proc.stop() };
};

/** A dedicated webhook worker (apps/worker/dist/main.js) on the given database, as operators run one. */
export const startWorker = async ({ databaseUrl, encryptionKey, env = {} }) => {
  const port = await freePort();
  const proc = startProcess('worker', ['apps/worker/dist/main.js'], {
    ...serviceEnv(port, databaseUrl, encryptionKey),
    // One line per attempt would cost the worker more than the attempt; warnings and errors still show.
    LOG_LEVEL: 'warn',
    ...env,
  });
  try {
    await waitFor(proc, `http://127.0.0.1:${port}/health/ready`, 60_000);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return { pid: proc.child.pid, stop: () => proc.stop() };
};
