import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Test } from 'tap';

/**
 * Real processes for the operations tests: the built API as operators start it, a private Postgres cluster the test
 * may stop, and a plain HTTP client that can choose its source address on loopback.
 */

import { freePort } from '@garage/api/testing';

export { API_MAIN as MAIN, freePort, startApiProcess as startApi, type ApiProcess, type StartOptions } from '@garage/api/testing';

const run = promisify(execFile);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  json<T = any>(): T;
}

export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Source address on loopback (any of 127.0.0.0/8): a distinct client as far as the server can tell. */
  localAddress?: string;
  timeoutMs?: number;
}

/** One request on a fresh connection; rejects on a connection error or after `timeoutMs` without an answer. */
export const http = (url: string, { method = 'GET', headers = {}, body, localAddress, timeoutMs = 10_000 }: HttpOptions = {}): Promise<HttpResponse> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress, agent: false, timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) }),
      );
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${method} ${url} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });

/** Polls `probe` every `intervalMs` until it returns true, at most `attempts` times; returns whether it did. */
export const eventually = async (probe: () => Promise<boolean>, { attempts = 50, intervalMs = 100 } = {}): Promise<boolean> => {
  for (let i = 0; i < attempts; i += 1) {
    if (await probe().catch(() => false)) return true;
    await sleep(intervalMs);
  }
  return false;
};

/** The newest Postgres server binaries installed (Debian layout). */
export const postgresBin = (): string => {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no Postgres server binaries under ${root}: install postgresql`);
  return join(root, newest, 'bin');
};

export interface PrivatePostgres {
  /** Superuser URL of the `postgres` database on the cluster. */
  url: string;
  /** `pg_ctl stop -m immediate`: the server vanishes as in a crash. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** A streaming replica of this cluster (`pg_basebackup -R`), started on a port of its own. */
  replica(): Promise<PrivatePostgres>;
}

/**
 * A throwaway Postgres cluster in a temporary directory, on a free loopback port, trust authentication. initdb
 * refuses to run as root, so as root (CI) the cluster belongs to the `postgres` OS user. Stopped and removed at the
 * end of the test.
 */
export const privatePostgres = async (t: Test, from?: { port: number }): Promise<PrivatePostgres> => {
  const bin = postgresBin();
  const dir = await mkdtemp(join(tmpdir(), 'garage-pg-'));
  const asRoot = process.getuid?.() === 0;
  const as = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    await chown(dir, Number(stdout.trim()), -1);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  if (from) {
    // A copy of the primary that keeps streaming from it: `-R` writes the standby settings.
    await as(join(bin, 'pg_basebackup'), ['-D', data, '-h', '127.0.0.1', '-p', String(from.port), '-U', 'postgres', '-R', '--no-sync', '-X', 'stream']);
  } else {
    await as(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  }
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const pgCtl = (...args: string[]) => as(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', options, ...args]);
  const start = async () => {
    await pgCtl('-w', '-t', '30', 'start');
  };
  const stop = async () => {
    await pgCtl('-m', 'immediate', '-w', 'stop');
  };
  await start();
  t.teardown(async () => {
    await stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop, start, replica: () => privatePostgres(t, { port }) };
};

export interface TcpProxy {
  port: number;
  /** Closes the listener and every connection through it: to its clients, the target has vanished. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
}

/** A TCP proxy on loopback in front of `target`, to take a shared service away from the processes under test only. */
export const tcpProxy = async (t: Test, target: URL): Promise<TcpProxy> => {
  if (!target.port) throw new Error(`${target.protocol}//${target.host}: the proxy needs the target's port spelled out`);
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      listening.on('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        const address = listening.address();
        if (address && typeof address === 'object') port = address.port;
        server = listening;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (server) server.close(() => resolve());
      else resolve();
      server = null;
    });
  await listen();
  t.teardown(cut);
  return {
    get port() {
      return port;
    },
    cut,
    restore: listen,
  };
};
