import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { freePort, http, sleep, type HttpResponse } from './processes.js';

/**
 * nginx on loopback, running the sample configuration operators are given (deploy/nginx/showcase-cache.conf) with
 * its own address, port and cache directory, in a temporary prefix of its own: no daemon, no file outside it. Stopped
 * by its pid and removed when the test ends. nginx is a system package (.ci/system-deps installs it): without it the
 * test fails.
 */

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
const SAMPLE = fileURLToPath(new URL('../../../../deploy/nginx/showcase-cache.conf', import.meta.url));

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** `text` with `from` replaced, which must occur exactly once: a sample that no longer says it fails loudly. */
const replaceOnce = (text: string, from: string, to: string) => {
  const parts = text.split(from);
  if (parts.length !== 2) throw new Error(`deploy/nginx/showcase-cache.conf: expected "${from}" once, found it ${parts.length - 1} times`);
  return parts.join(to);
};

export interface Nginx {
  port: number;
  /** One GET through nginx, on a fresh connection. */
  get(path: string, headers?: Record<string, string>): Promise<HttpResponse>;
}

/** Starts nginx with the sample configuration in front of the API listening on `apiPort`; resolves once it listens. */
export const startShowcaseCache = async (t: Test, { apiPort }: { apiPort: number }): Promise<Nginx> => {
  if (!NGINX) throw new Error('nginx is not installed (.ci/system-deps installs it)');
  const dir = await mkdtemp(join(tmpdir(), 'garage-nginx-'));
  // nginx started as root runs its workers as nobody, who must reach the cache directory it creates inside.
  await chmod(dir, 0o755);
  const port = await freePort();
  let sample = await readFile(SAMPLE, 'utf8');
  sample = replaceOnce(sample, '/var/cache/nginx/garage-showcase', join(dir, 'cache'));
  sample = replaceOnce(sample, 'server 127.0.0.1:3000;', `server 127.0.0.1:${apiPort};`);
  sample = replaceOnce(sample, 'listen 8080;', `listen 127.0.0.1:${port};`);
  await writeFile(join(dir, 'showcase-cache.conf'), sample);
  const errorLog = join(dir, 'error.log');
  await writeFile(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${errorLog} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`),
      `  include ${join(dir, 'showcase-cache.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(NGINX, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', errorLog], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let running = true;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running = false;
      resolve();
    }),
  );
  t.teardown(async () => {
    // QUIT: the master waits for its workers, so nothing of it outlives the test.
    if (running) child.kill('SIGQUIT');
    await exited;
    await rm(dir, { recursive: true, force: true });
  });
  const log = async () => `${stderr}${await readFile(errorLog, 'utf8').catch(() => '')}`;
  for (let attempt = 0; !(await accepts(port)); attempt += 1) {
    if (!running) throw new Error(`nginx exited before listening:\n${await log()}`);
    if (attempt >= 200) throw new Error(`nginx did not listen on ${port}:\n${await log()}`);
    await sleep(50);
  }
  return { port, get: (path, headers = {}) => http(`http://127.0.0.1:${port}${path}`, { headers }) };
};
