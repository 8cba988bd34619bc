import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { signWebhook } from '@garage/domain';
import { connectPostgres, migrateToLatest } from '@garage/postgres';
import { adminFor, ENCRYPTION_KEY, LOOPBACK_NETWORKS, product, seedGarage } from '@garage/composition/testing';
import { startReceiver } from '@garage/webhook-delivery/testing';
import { http, postgresBin, privatePostgres, startApi } from './support/processes.js';

/**
 * docs/operators/backups.md, "Logical dump and restore", carried out: a loaded database dumped with pg_dump, restored
 * with pg_restore into a new database, and the API on the copy serves the same pages (the same ETags) and signs
 * webhooks with the same secrets (ENCRYPTION_KEY, which the dump does not hold, given to it separately).
 */

const run = promisify(execFile);
const bin = postgresBin();

t.test('a dump restored into a new database serves the same pages and the same webhook secrets', async (t) => {
  const server = await privatePostgres(t);
  const source = connectPostgres({ connectionString: server.url });
  t.teardown(() => source.close());
  await migrateToLatest(source.db);
  const admin = adminFor(source.db);
  const garage = await seedGarage(admin);
  await admin.importProducts(garage.slug, Array.from({ length: 300 }, (_, i) => product(`BULK-${i}`, { name: `Part ${i}` })));
  const receiver = await startReceiver();
  t.teardown(receiver.close);
  const hooked = await admin.createIntegration({ garageSlug: garage.slug, name: 'hooked', sync: ['catalog'], webhookUrl: `${receiver.url}/hooks` });

  const env = { ENCRYPTION_KEY, MIGRATE_ON_START: 'false', WEBHOOK_ALLOWED_NETWORKS: LOOPBACK_NETWORKS };
  const pages = [
    { path: '/api/public/products?limit=100', key: garage.keys.all },
    { path: '/api/public/stock?limit=100', key: garage.keys.all },
    { path: `/api/public/fleet?garageSlug=${garage.slug}`, key: null },
  ];
  const read = async (base: string) =>
    Promise.all(
      pages.map(async ({ path, key }) => {
        const res = await http(`${base}${path}`, { headers: key ? { 'x-api-key': key } : {} });
        return { path, status: res.status, etag: res.headers.etag, body: res.body };
      }),
    );
  const original = await startApi(t, { ...env, DATABASE_URL: server.url });
  const before = await read(original.url);
  t.ok(before.every((page) => page.status === 200 && page.etag), 'every page is served with an ETag');
  await original.stop();

  const dir = await mkdtemp(join(tmpdir(), 'garage-backup-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const dump = join(dir, 'garage.dump');
  await run(join(bin, 'pg_dump'), ['--format=custom', '--file', dump, server.url]);
  const restoredUrl = server.url.replace(/\/postgres$/, '/restored');
  await run(join(bin, 'createdb'), ['--maintenance-db', server.url, 'restored']);
  await run(join(bin, 'pg_restore'), ['--exit-on-error', '--no-owner', '--dbname', restoredUrl, dump]);

  const restored = await startApi(t, { ...env, DATABASE_URL: restoredUrl });
  const after = await read(restored.url);
  t.same(after, before, 'the same pages, byte for byte, with the same ETags');
  for (const page of before) {
    const again = await http(`${restored.url}${page.path}`, {
      headers: { 'if-none-match': String(page.etag), ...(pages.find((p) => p.path === page.path)?.key ? { 'x-api-key': garage.keys.all } : {}) },
    });
    t.equal(again.status, 304, `${page.path}: a connector's cached copy is still current`);
  }

  const test = await http(`${restored.url}/api/public/webhooks/test`, { method: 'POST', headers: { 'x-api-key': hooked.apiKey } });
  t.match(test.json(), { data: { delivered: true } });
  const sent = receiver.received.at(-1)!;
  const id = String(sent.headers['webhook-id']);
  const timestamp = Number(sent.headers['webhook-timestamp']);
  t.equal(sent.headers['webhook-signature'], signWebhook(hooked.webhookSecret, id, timestamp, sent.body), 'signed with the secret the connector was given before the backup');
});
