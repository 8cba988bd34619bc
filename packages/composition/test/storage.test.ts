import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { makeSecretBox } from '@garage/domain';
import { deriveSubkey, parseEncryptionKey } from '@garage/domain';
import { openStorage } from '../src/storage.js';

const newKey = () => randomBytes(32).toString('base64');
const keyId = (base64: string) => createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex').slice(0, 8);
const recorder = () => {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (msg: string) => void warnings.push(msg) } };
};

t.test('embedded without ENCRYPTION_KEY: a key is generated once next to the data directory, then reused', async (t) => {
  const root = t.testdir();
  const pgliteDir = join(root, 'data', 'pglite');
  const first = recorder();
  const opened = await openStorage({ pgliteDir, logger: first.logger });
  await opened.handle.close();
  const file = join(root, 'data', 'encryption.key');
  const stored = (await readFile(file, 'utf8')).trim();
  t.equal((await stat(file)).mode & 0o777, 0o600);
  t.match(opened, { embedded: true, dataDir: pgliteDir, handle: { kind: 'pglite' } });
  t.same(opened.encryptionKeys.map((k) => k.id), [keyId(stored)]);
  t.equal(first.warnings.length, 1);
  t.match(first.warnings[0], /ENCRYPTION_KEY.*encryption\.key/);

  const second = recorder();
  const reopened = await openStorage({ pgliteDir, logger: second.logger });
  await reopened.handle.close();
  t.same(reopened.encryptionKeys, opened.encryptionKeys);
  t.same(second.warnings, [], 'a reused key is not news');
});

t.test('with DATABASE_URL: Postgres, and ENCRYPTION_KEY is required', async (t) => {
  const { logger } = recorder();
  const databaseUrl = 'postgres://postgres@127.0.0.1:1/unused';
  await t.rejects(openStorage({ databaseUrl, pgliteDir: t.testdir(), logger }), /ENCRYPTION_KEY is required/);
  const active = newKey();
  const old = newKey();
  const storage = await openStorage({
    databaseUrl,
    pgliteDir: t.testdir(),
    encryptionKey: active,
    previousEncryptionKeys: [old, active],
    logger,
  });
  t.teardown(() => storage.handle.close());
  t.match(storage, { embedded: false, handle: { kind: 'postgres' } });
  t.equal(storage.dataDir, undefined);
  t.same(storage.encryptionKeys.map((k) => k.id), [keyId(active), keyId(old)], 'active first, duplicates dropped');
});

t.test('a key that is not base64 of exactly 32 bytes is refused with the setting named', async (t) => {
  const tooShort = randomBytes(16).toString('base64');
  const tooLong = randomBytes(33).toString('base64');
  for (const bad of [tooShort, tooLong, `${newKey().slice(0, -4)}!!!=`]) {
    t.throws(() => parseEncryptionKey(bad, 'ENCRYPTION_KEY'), /ENCRYPTION_KEY must be base64 of exactly 32 bytes/);
  }
  const { logger } = recorder();
  await t.rejects(
    openStorage({ pgliteDir: t.testdir(), encryptionKey: newKey(), previousEncryptionKeys: ['short'], logger }),
    /previous encryption key #1/,
  );
});

t.test('rotation: secrets written under the old key stay readable once the new key is active', async (t) => {
  const old = parseEncryptionKey(newKey(), 'old');
  const current = parseEncryptionKey(newKey(), 'new');
  const sealed = makeSecretBox([old]).encrypt('whsec_abc', 'i1');
  t.equal(makeSecretBox([current, old]).decrypt(sealed, 'i1'), 'whsec_abc');
  t.equal(makeSecretBox([current, old]).encrypt('x', 'i1').keyId, current.id);
});

t.test('subkeys are 32 bytes, stable per purpose, and independent of each other and of the key', async (t) => {
  const keys = [parseEncryptionKey(newKey(), 'k')];
  const cursors = deriveSubkey(keys, 'cursors');
  t.equal(cursors.length, 32);
  t.same(deriveSubkey(keys, 'cursors'), cursors);
  t.notSame(deriveSubkey(keys, 'other'), cursors);
  t.notSame(cursors, keys[0]?.key);
  t.throws(() => deriveSubkey([], 'cursors'));
});

t.test('the embedded database refuses a second process instead of letting it corrupt the data', async (t) => {
  const pgliteDir = join(t.testdir(), 'pglite');
  const lock = `${pgliteDir}.lock`;
  const { logger } = recorder();
  // Another process that holds the lock: a running child stands in for `pnpm start`.
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  t.teardown(() => holder.kill('SIGKILL'));
  await mkdir(pgliteDir, { recursive: true });
  await writeFile(lock, `${holder.pid}\n`);
  await t.rejects(openStorage({ pgliteDir, logger }), new RegExp(`in use by process ${holder.pid}.*DATABASE_URL`));

  holder.kill('SIGKILL');
  await once(holder, 'exit');
  const storage = await openStorage({ pgliteDir, logger });
  t.equal((await readFile(lock, 'utf8')).trim(), String(process.pid), 'a stale lock is taken over');
  await storage.handle.close();
  await t.rejects(stat(lock), { code: 'ENOENT' }, 'closing releases the lock');
});

/** Every file and directory under `dir` with its permission bits, relative paths as keys. */
const modesUnder = async (dir: string): Promise<Map<string, number>> => {
  const modes = new Map<string, number>();
  const walk = async (path: string) => {
    modes.set(path.slice(dir.length) || '/', (await stat(path)).mode & 0o777);
    for (const entry of await readdir(path, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(path, entry.name));
      else modes.set(join(path, entry.name).slice(dir.length), (await stat(join(path, entry.name))).mode & 0o777);
    }
  };
  await walk(dir);
  return modes;
};

t.test('embedded data is private: files 0600, directories 0700 (the key, the lock, the whole database)', async (t) => {
  const root = t.testdir();
  const dataRoot = join(root, '.data');
  const pgliteDir = join(dataRoot, 'pglite');
  const opened = await openStorage({ pgliteDir, logger: recorder().logger });
  t.equal((await stat(`${pgliteDir}.lock`)).mode & 0o777, 0o600, 'the lock file');
  await opened.handle.db.schema.createTable('t').addColumn('x', 'text').execute();
  await opened.handle.close();

  const modes = await modesUnder(dataRoot);
  t.ok(modes.size > 10, 'the database wrote its files');
  const loose = [...modes].filter(([, mode]) => (mode & 0o077) !== 0);
  t.same(loose, [], 'nothing readable by group or others');
  t.equal(modes.get('/'), 0o700, '.data');
  t.equal(modes.get('/pglite'), 0o700);
  t.equal(modes.get('/encryption.key'), 0o600);
});

t.test('an installation from an earlier version (world-readable) is tightened on open', async (t) => {
  const root = t.testdir();
  const pgliteDir = join(root, '.data', 'pglite');
  await (await openStorage({ pgliteDir, logger: recorder().logger })).handle.close();
  await chmod(pgliteDir, 0o755);
  await chmod(join(root, '.data', 'encryption.key'), 0o644);
  const control = join(pgliteDir, 'global', 'pg_control');
  await chmod(control, 0o666);
  const reopened = await openStorage({ pgliteDir, logger: recorder().logger });
  t.equal((await stat(pgliteDir)).mode & 0o777, 0o700);
  t.equal((await stat(join(root, '.data', 'encryption.key'))).mode & 0o777, 0o600);
  t.equal((await stat(control)).mode & 0o777, 0o600);
  await reopened.handle.close();
});
