import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export { freePort } from '@garage/redis/testing';

/** The API's build, as operators start it (`node apps/api/dist/main.js`). */
export const API_MAIN = fileURLToPath(new URL('../main.js', import.meta.url));

export interface ApiProcess {
  child: ChildProcessWithoutNullStreams;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every log line so far, parsed. */
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
  /** Sends the signal (SIGTERM by default) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  cwd?: string;
  /** Another build of the API to start (a previous release's), instead of this one. */
  main?: string;
  /** Resolve only once a log message also matches this (e.g. the demo `curl` line of an embedded start). */
  readyWhen?: RegExp;
}

/** What a test framework offers to undo work when a test ends (tap's `t` is one). */
export interface Teardown {
  teardown(undo: () => Promise<void> | void): void;
}

/**
 * Starts the built API on a port of its choosing with `env` (on top of loopback, ports 0 and LOG_LEVEL=info) and
 * resolves once it listens (and `readyWhen` was logged). Killed when the test ends should it still run.
 */
export const startApiProcess = (t: Teardown, env: Record<string, string>, { cwd, readyWhen, main = API_MAIN }: StartOptions = {}): Promise<ApiProcess> => {
  if (!existsSync(main)) throw new Error(`${main} is missing: build first (pnpm build)`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main], {
      cwd,
      env: { PATH: process.env.PATH ?? '', PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    });
    const lines: Record<string, unknown>[] = [];
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    t.teardown(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    });
    let buffer = '';
    let stderr = '';
    let port = 0;
    let readySeen = false;
    let settled = false;
    const timer = setTimeout(() => reject(new Error(`the API did not listen within 60 s: ${stderr}`)), 60_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
        buffer = buffer.slice(newline + 1);
        lines.push(line);
        const listening = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(String(line.msg));
        if (listening) port = Number(listening[1]);
        if (readyWhen?.test(String(line.msg))) readySeen = true;
        if (!settled && port > 0 && (readyWhen === undefined || readySeen)) {
          settled = true;
          clearTimeout(timer);
          resolve({
            child,
            port,
            url: `http://127.0.0.1:${port}`,
            lines,
            exited,
            stop: (signal = 'SIGTERM') => {
              if (child.exitCode === null && child.signalCode === null) child.kill(signal);
              return exited;
            },
          });
        }
      }
    });
    void exited.then((code) => reject(new Error(`the API exited with ${code} before listening: ${stderr}`)));
  });
};
