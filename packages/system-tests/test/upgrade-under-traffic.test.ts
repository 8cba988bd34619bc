import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import t from 'tap';
import { testDatabaseUrl } from '@garage/postgres/testing';
import { ENCRYPTION_KEY } from '@garage/composition/testing';
import { http, startApi, type ApiProcess, type HttpResponse } from './support/processes.js';
import { previousRelease } from './support/previous-release.js';

/**
 * docs/operators/deployment.md, "Upgrading under traffic": the previous release's API serves a steady mix of reads and
 * bookings while this release's migrations run, then its instances are replaced one by one by this release's, as a
 * rolling update does. No client sees a 5xx or a refused connection, every booking answered 201 is stored, and no
 * slot holds more bookings than the garage's capacity.
 */

t.setTimeout(300_000);
const run = promisify(execFile);
const CLI_MAIN = fileURLToPath(new URL('../../../apps/cli/dist/main.js', import.meta.url));
const CAPACITY = 2;
const CLIENTS = 4;

const release = await previousRelease();

/** An empty database of its own on the test server, dropped at the end. */
const emptyDatabase = async (): Promise<string> => {
  const base = testDatabaseUrl();
  const name = `garage_upgrade_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  t.teardown(async () => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

const databaseUrl = await emptyDatabase();
const env = { DATABASE_URL: databaseUrl, ENCRYPTION_KEY, DELIVER_WEBHOOKS: 'false', SHUTDOWN_DELAY_MS: '1000', LOG_LEVEL: 'warn' };
const cli = async (main: string, args: string[]) => JSON.parse((await run(process.execPath, [main, ...args, '--json'], { env: { PATH: process.env['PATH'] ?? '', ...env } })).stdout);

t.test(`from ${release.commit} to this release, under traffic`, async (t) => {
  // The previous release migrates the database to its own schema (its CLI, as its migration Job would) and holds the garage.
  await cli(release.cliMain, ['garage', 'create', '--slug', 'upgrade', '--name', 'Garage Upgrade', '--capacity', String(CAPACITY)]);
  const dir = await mkdtemp(join(tmpdir(), 'garage-upgrade-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const products = join(dir, 'products.json');
  await writeFile(products, JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ sku: `P-${i}`, name: `Part ${i}`, priceCents: 1000 + i }))));
  const [{ apiKey }, , ...oldInstances] = await Promise.all([
    cli(release.cliMain, ['integration', 'create', '--garage', 'upgrade', '--name', 'shop', '--sync', 'appointments,catalog']),
    cli(release.cliMain, ['import', 'products', '--garage', 'upgrade', products]),
    startApi(t, { ...env, LOG_LEVEL: 'info', MIGRATE_ON_START: 'false' }, { main: release.apiMain }),
    startApi(t, { ...env, LOG_LEVEL: 'info', MIGRATE_ON_START: 'false' }, { main: release.apiMain }),
  ]);

  // The behind-the-balancer view: requests go round the instances in rotation; one leaves it before it is stopped.
  let rotation: ApiProcess[] = [...oldInstances];
  let turn = 0;
  const send = (path: string, options: { method?: string; body?: unknown } = {}): Promise<HttpResponse> => {
    const instance = rotation[turn++ % rotation.length]!;
    return http(`${instance.url}${path}`, {
      method: options.method ?? 'GET',
      headers: { 'x-api-key': apiKey, ...(options.body ? { 'content-type': 'application/json' } : {}) },
      ...(options.body ? { body: JSON.stringify(options.body) } : {}),
    });
  };

  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const slots = (await send(`/api/public/appointments/availability?from=${day(2)}&to=${day(15)}`)).json<{ data: { startsAt: string }[] }>().data.map((s) => s.startsAt);
  t.ok(slots.length >= 20, `${slots.length} bookable starts`);

  const seen = { reads: 0, bookings: 0, full: 0, failures: [] as string[] };
  const served = () => seen.reads + seen.bookings;
  /** The test's steps wait for the traffic to have moved on by a number of requests (or to have failed). */
  const waiting: { target: number; reached: () => void }[] = [];
  const notify = () => {
    for (const waiter of waiting.filter((w) => served() >= w.target || seen.failures.length > 0)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.reached();
    }
  };
  const booked: string[] = [];
  let stopping = false;
  const client = async (id: number) => {
    for (let i = 0; !stopping; i += 1) {
      try {
        if (i % 3 === 2) {
          const startsAt = slots[(id * 7 + i) % slots.length]!;
          const res = await send('/api/public/appointments', { method: 'POST', body: { startsAt, customer: { name: `Client ${id}-${i}`, email: `c${id}-${i}@example.com` } } });
          if (res.status === 201) booked.push(res.json<{ data: { id: string } }>().data.id);
          else if (res.status === 409) seen.full += 1;
          else seen.failures.push(`POST ${res.status} ${res.body}`);
          seen.bookings += 1;
        } else {
          const path = i % 2 === 0 ? '/api/public/products?limit=20' : `/api/public/appointments/availability?from=${day(2)}&to=${day(4)}`;
          const res = await send(path);
          if (res.status !== 200) seen.failures.push(`GET ${path} ${res.status} ${res.body}`);
          seen.reads += 1;
        }
      } catch (err) {
        seen.failures.push(String(err));
      }
      notify();
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, id) => client(id));
  const progressed = (count: number) => new Promise<void>((reached) => waiting.push({ target: served() + count, reached }));

  await progressed(60);
  const { migrated } = await cli(CLI_MAIN, ['migrate']);
  t.ok(migrated.length > 0, `this release's migrations ran under traffic: ${migrated.join(', ')}`);
  await progressed(60);

  for (const old of oldInstances) {
    const fresh = await startApi(t, { ...env, LOG_LEVEL: 'info', MIGRATE_ON_START: 'false' });
    rotation = [...rotation, fresh];
    await progressed(30);
    rotation = rotation.filter((instance) => instance !== old);
    t.equal(await old.stop(), 0, 'the previous release stops cleanly');
    await progressed(30);
  }
  stopping = true;
  await Promise.all(clients);

  t.same(seen.failures, [], 'no 5xx, no refused connection');
  t.ok(seen.reads > 100 && seen.bookings > 50, `${seen.reads} reads and ${seen.bookings} bookings served`);
  t.ok(booked.length > 0 && seen.full > 0, `${booked.length} booked, ${seen.full} refused as full`);

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  t.teardown(() => db.end());
  const stored = await db.query<{ id: string }>('select id from appointments where id = any($1::uuid[])', [booked]);
  t.equal(stored.rowCount, booked.length, 'every booking answered 201 is stored');
  const overbooked = await db.query('select starts_at, count(*) from appointments where status <> $1 group by starts_at having count(*) > $2', ['cancelled', CAPACITY]);
  t.same(overbooked.rows, [], 'no slot over capacity');
});
