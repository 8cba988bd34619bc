import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ENCRYPTION_KEY_BYTES, parseEncryptionKey, type EncryptionKey } from '@garage/domain';
import { connectPglite, connectPostgres, type DatabaseHandle } from '@garage/postgres';

export interface StorageOptions {
  /** Postgres; unset means embedded PGlite under `pgliteDir`. */
  databaseUrl?: string;
  pgliteDir: string;
  /** Base64 of 32 bytes. Required with `databaseUrl`; embedded mode generates one when it is missing. */
  encryptionKey?: string;
  /** Former keys, kept to decrypt secrets written before a rotation; never used to encrypt. */
  previousEncryptionKeys?: string[];
  logger: { warn(msg: string): void };
  /** Pool size, statement timeout and named statements of a Postgres connection (defaults of `connectPostgres`). */
  pool?: { max?: number; statementTimeoutMillis?: number; namedStatements?: boolean };
}

export interface Storage {
  handle: DatabaseHandle;
  /** The active key first, then the previous ones (the order `makeSecretBox` expects). */
  encryptionKeys: EncryptionKey[];
  embedded: boolean;
  /** The PGlite data directory, in embedded mode. */
  dataDir?: string;
}

/**
 * The key of an embedded installation without ENCRYPTION_KEY: generated once next to the data directory and read
 * back on later starts, so that webhook secrets stay decryptable. The exclusive create makes two processes starting
 * together agree on one key.
 */
const embeddedKey = async (pgliteDir: string, logger: StorageOptions['logger']): Promise<EncryptionKey> => {
  const file = join(dirname(pgliteDir), 'encryption.key');
  const generated = randomBytes(ENCRYPTION_KEY_BYTES).toString('base64');
  try {
    await writeFile(file, `${generated}\n`, { flag: 'wx', mode: PRIVATE_FILE });
    logger.warn(`ENCRYPTION_KEY is not set: generated one in ${file}; set ENCRYPTION_KEY to manage it yourself`);
    return parseEncryptionKey(generated, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    await chmod(file, PRIVATE_FILE);
    return parseEncryptionKey(await readFile(file, 'utf8'), `the key in ${file}`);
  }
};

/** Secrets and the embedded database are readable by the operator's account alone. */
const PRIVATE_FILE = 0o600;
const PRIVATE_DIR = 0o700;

/**
 * PGlite creates its files world-readable (0666, directories 0755). The data directory itself is 0700, which already
 * keeps others out; its contents are tightened too, on open and on close, so that a copy or a later chmod of the
 * directory does not expose them. An installation made by an earlier version is tightened the same way.
 */
const restrictTree = async (dir: string): Promise<void> => {
  await chmod(dir, PRIVATE_DIR);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await restrictTree(path);
    else if (entry.isFile()) await chmod(path, PRIVATE_FILE);
  }
};

const keyRing = (active: EncryptionKey, previous: string[]): EncryptionKey[] => {
  const keys = [active, ...previous.map((k, i) => parseEncryptionKey(k, `previous encryption key #${i + 1}`))];
  return keys.filter((k, i) => keys.findIndex((other) => other.id === k.id) === i);
};

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * PGlite is a single-process database: a second process opening the same directory (the CLI while `pnpm start`
 * runs) would corrupt it. A lock file next to the directory, holding the owner's pid, turns that into a clear error;
 * a lock left by a process that no longer runs is taken over.
 */
const lockDataDir = async (dataDir: string): Promise<() => Promise<void>> => {
  const file = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: PRIVATE_FILE });
      return () => rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (owner === process.pid) return async () => {};
      if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
        throw new Error(
          `the embedded database in ${dataDir} is in use by process ${owner} (is \`pnpm start\` running?): ` +
            'stop that process first, or set DATABASE_URL to share a Postgres server',
        );
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock the embedded database in ${dataDir}`);
};

/** Opens the configured database and the encryption keys that go with it. Fails fast on bad configuration. */
export const openStorage = async (options: StorageOptions): Promise<Storage> => {
  const previous = options.previousEncryptionKeys ?? [];
  if (options.databaseUrl) {
    if (!options.encryptionKey) {
      throw new Error('ENCRYPTION_KEY is required when DATABASE_URL is set (generate one: openssl rand -base64 32)');
    }
    const encryptionKeys = keyRing(parseEncryptionKey(options.encryptionKey, 'ENCRYPTION_KEY'), previous);
    return { handle: connectPostgres({ connectionString: options.databaseUrl, ...options.pool }), encryptionKeys, embedded: false };
  }
  const dataDir = resolve(options.pgliteDir);
  // Directories created here (`.data` by default, and the database's own) are private; existing parents are not ours.
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR });
  const active = options.encryptionKey
    ? parseEncryptionKey(options.encryptionKey, 'ENCRYPTION_KEY')
    : await embeddedKey(dataDir, options.logger);
  const encryptionKeys = keyRing(active, previous);
  const unlock = await lockDataDir(dataDir);
  try {
    await restrictTree(dataDir);
    const handle = await connectPglite(dataDir);
    const close = handle.close;
    const closeAndRestrict = () =>
      close()
        .then(() => restrictTree(dataDir))
        .finally(unlock);
    return { handle: { ...handle, close: closeAndRestrict }, encryptionKeys, embedded: true, dataDir };
  } catch (err) {
    await unlock();
    throw err;
  }
};
