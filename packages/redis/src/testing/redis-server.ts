import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Test } from 'tap';

/**
 * Redis servers of a test's own (the `redis-server` and `redis-cli` binaries on PATH), for the tests that take Redis
 * away, freeze it or spread it over a cluster: the shared test Redis cannot be treated so.
 */

const START_TIMEOUT_MS = 30_000;

export interface RedisServer {
  url: string;
  /** Kills the server at once, as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open but nothing is answered, as with a hung host. */
  pause(): void;
  resume(): void;
}

/** A TCP port that was free a moment ago, on loopback. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

const started = (child: ChildProcess): Promise<void> =>
  new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => done(new Error(`redis-server did not start within ${START_TIMEOUT_MS} ms: ${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) done(null);
    };
    const onExit = (code: number | null) => done(new Error(`redis-server exited with ${code}: ${output}`));
    const done = (err: Error | null) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      // Keep draining its output so that the server never blocks on a full pipe.
      child.stdout?.resume();
      if (err) reject(err);
      else resolve();
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });

/** A private, empty, non-persistent redis-server on loopback that the test may kill, restart or freeze. */
export const startRedisServer = async (t: Test, { cluster }: { cluster?: { dir: string } } = {}): Promise<RedisServer & { port: number }> => {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const clusterArgs = cluster
    ? ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000', '--dir', cluster.dir]
    : [];
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...clusterArgs], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await started(child);
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running) return;
    running.kill('SIGKILL');
    await exited(running);
  };
  const signal = (name: NodeJS.Signals) => () => {
    if (!child) throw new Error('redis-server is not running');
    child.kill(name);
  };
  t.teardown(kill);
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, restart: start, pause: signal('SIGSTOP'), resume: signal('SIGCONT') };
};

/** A Redis Cluster of `masters` masters (no replicas) on loopback, its slots spread over them; empty and private. */
export const startRedisCluster = async (t: Test, masters = 3): Promise<{ nodes: (RedisServer & { port: number })[]; seeds: string }> => {
  const dir = await mkdtemp(join(tmpdir(), 'garage-redis-cluster-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const nodes = await Promise.all(Array.from({ length: masters }, () => startRedisServer(t, { cluster: { dir } })));
  const seeds = nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  await promisify(execFile)('redis-cli', ['--cluster', 'create', ...seeds.split(','), '--cluster-replicas', '0', '--cluster-yes']);
  for (const node of nodes) {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      const { stdout } = await promisify(execFile)('redis-cli', ['-p', String(node.port), 'cluster', 'info']);
      if (stdout.includes('cluster_state:ok')) break;
      if (Date.now() > deadline) throw new Error(`the cluster did not become ready: ${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { nodes, seeds };
};
