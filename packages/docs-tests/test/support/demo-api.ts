import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { makeDestinationPolicy, parseEncryptionKey, type DemoCredentials } from '@garage/domain';
import { makeAdminUseCases } from '@garage/composition';
import { createTestDatabase } from '@garage/postgres/testing';
import type { Test } from 'tap';

const LOOPBACK_NETWORKS = '127.0.0.0/8,::1/128';
const API_MAIN = fileURLToPath(new URL('../../../../apps/api/dist/main.js', import.meta.url));

export interface DemoApi {
  url: string;
  credentials: DemoCredentials;
  /** Where the demo integration's webhooks go: `http://127.0.0.1:<webhookPort>/hooks`, nobody listening until a guide does. */
  webhookPort: number;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * The built API as a connector meets it after `pnpm start`: the demo garage seeded (catalog, stock, fleet, an
 * integration with every toggle on, a pending and an expired quote), on a fresh Postgres database, its webhooks sent
 * to a port on loopback (which the API is told to allow). Stopped and dropped when `t` ends.
 */
export const startDemoApi = async (t: Test): Promise<DemoApi> => {
  const database = await createTestDatabase('docs');
  t.teardown(() => database.drop());
  const encryptionKey = randomBytes(32).toString('base64');
  // The guides' receiver listens on loopback, which webhook destinations may only be when allowed.
  const admin = makeAdminUseCases(database.handle.db, [parseEncryptionKey(encryptionKey, 'ENCRYPTION_KEY')], undefined, makeDestinationPolicy(LOOPBACK_NETWORKS.split(',')));
  const credentials = await admin.seedDemo();
  const webhookPort = await freePort();
  await admin.updateIntegration(credentials.integrations[0]!.id, { webhookUrl: `http://127.0.0.1:${webhookPort}/hooks` });

  const url = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [API_MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        METRICS_PORT: '0',
        LOG_LEVEL: 'info',
        DATABASE_URL: database.url,
        ENCRYPTION_KEY: encryptionKey,
        WEBHOOK_ALLOWED_NETWORKS: LOOPBACK_NETWORKS,
        // A failed delivery waits: the guides look at it as it is.
        WEBHOOK_RETRY_SCHEDULE: '1h',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    t.teardown(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    });
    const timer = setTimeout(() => reject(new Error('the API did not listen within 60 s')), 60_000);
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(buffer);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]!);
      }
      if (buffer.length > 100_000) buffer = buffer.slice(-1_000);
    });
    child.on('exit', (code) => reject(new Error(`the API exited (${code}) before listening`)));
  });
  return { url, credentials, webhookPort };
};
