import { execFile } from 'node:child_process';
import { appendFile, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import t from 'tap';
import { connectPostgres, migrateToLatest } from '@garage/postgres';
import { adminFor, ENCRYPTION_KEY, product, seedGarage } from '@garage/composition/testing';
import { eventually, freePort, http, postgresBin, startApi } from './support/processes.js';

/**
 * docs/operators/backups.md, "Point-in-time recovery", carried out: a cluster archiving its WAL, a base backup, writes
 * before and after a chosen moment, and a recovery to that moment that has the first and not the second, served by
 * the API.
 */

const run = promisify(execFile);
const bin = postgresBin();
const asRoot = process.getuid?.() === 0;
/** initdb and postgres refuse to run as root: as root (CI), the cluster belongs to the `postgres` OS user. */
const asPostgres = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args));
const ownedByPostgres = async (path: string) => {
  if (asRoot) await chown(path, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), -1);
};

/** A cluster on `data`, on a free loopback port, stopped at the end of the test. */
const serve = async (dir: string, data: string) => {
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (...args: string[]) => asPostgres('pg_ctl', ['-D', data, '-l', join(data, '..', `server-${port}.log`), '-o', options, ...args]);
  await pgCtl('-w', '-t', '60', 'start');
  t.teardown(() => pgCtl('-m', 'immediate', '-w', 'stop').catch(() => undefined));
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop: () => pgCtl('-m', 'fast', '-w', 'stop') };
};

const query = async <R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
};

t.test('a base backup and the WAL archive recover the database to a chosen moment', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'garage-pitr-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const archive = join(dir, 'archive');
  await mkdir(archive);
  await Promise.all([ownedByPostgres(dir), ownedByPostgres(archive)]);
  const primaryData = join(dir, 'primary');
  await asPostgres('initdb', ['-D', primaryData, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  await appendFile(primaryData + '/postgresql.auto.conf', `wal_level = replica\narchive_mode = on\narchive_command = 'test ! -f ${archive}/%f && cp %p ${archive}/%f'\n`);
  const primary = await serve(dir, primaryData);

  const database = connectPostgres({ connectionString: primary.url });
  t.teardown(() => database.close());
  await migrateToLatest(database.db);
  const admin = adminFor(database.db);
  const garage = await seedGarage(admin);

  const base = join(dir, 'base');
  await asPostgres('pg_basebackup', ['-D', base, '-d', primary.url, '--wal-method=stream', '--checkpoint=fast', '--no-sync']);

  await admin.importProducts(garage.slug, [product('BEFORE', { name: 'Written before the mistake' })]);
  const [{ target } = { target: '' }] = await query<{ target: string }>(primary.url, `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' as target`);
  await admin.importProducts(garage.slug, [product('AFTER', { name: 'Written after the mistake' })]);
  const [{ segment } = { segment: '' }] = await query<{ segment: string }>(primary.url, 'select pg_walfile_name(pg_switch_wal()) as segment');
  t.ok(
    await eventually(async () => (await query<{ last: string | null }>(primary.url, 'select last_archived_wal as last from pg_stat_archiver'))[0]?.last === segment, { attempts: 100 }),
    'the WAL up to the writes is archived',
  );
  await database.close();
  await primary.stop();

  const recoveredData = join(dir, 'recovered');
  await run('cp', ['-a', base, recoveredData]);
  await ownedByPostgres(recoveredData);
  await appendFile(
    join(recoveredData, 'postgresql.auto.conf'),
    `archive_mode = off\nrestore_command = 'cp ${archive}/%f %p'\nrecovery_target_time = '${target}'\nrecovery_target_action = 'promote'\n`,
  );
  await writeFile(join(recoveredData, 'recovery.signal'), '');
  await ownedByPostgres(join(recoveredData, 'recovery.signal'));
  const recovered = await serve(dir, recoveredData);
  t.ok(await eventually(async () => (await query<{ r: boolean }>(recovered.url, 'select pg_is_in_recovery() as r'))[0]?.r === false, { attempts: 100 }), 'recovered and promoted');

  const api = await startApi(t, { DATABASE_URL: recovered.url, ENCRYPTION_KEY, MIGRATE_ON_START: 'false' });
  const skus = (await http(`${api.url}/api/public/products?limit=500`, { headers: { 'x-api-key': garage.keys.all } })).json<{ data: { sku: string }[] }>().data.map((p) => p.sku);
  t.ok(skus.includes('BEFORE'), 'what was written before the moment is there');
  t.notOk(skus.includes('AFTER'), 'what was written after it is not');
  t.ok(skus.includes('A-1'), 'and everything the base backup held');
});
