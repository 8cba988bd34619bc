import { spawn, type ChildProcess } from 'node:child_process';
import type { Test } from 'tap';
import { freePort } from './processes.js';

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
export const startRedisServer = async (t: Test): Promise<RedisServer> => {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
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
  return { url: `redis://127.0.0.1:${port}`, kill, restart: start, pause: signal('SIGSTOP'), resume: signal('SIGCONT') };
};
