import { createHash, hkdfSync } from 'node:crypto';

/** ENCRYPTION_KEY and its predecessors: base64 of exactly this many random bytes (AES-256). */
export const ENCRYPTION_KEY_BYTES = 32;

export interface EncryptionKey {
  /** Stored next to each ciphertext so that keys can rotate. */
  id: string;
  /** `ENCRYPTION_KEY_BYTES` bytes. */
  key: Buffer;
}

/**
 * The one place the key format is checked: base64 of exactly 32 bytes. Its id is derived from the key itself, so that
 * it is the same on every instance and after a restart without being configured separately. `name` says in the error
 * which setting or file held the bad value.
 */
export const parseEncryptionKey = (value: string, name: string): EncryptionKey => {
  const text = value.trim();
  const key = Buffer.from(text, 'base64');
  // Node's decoder skips invalid characters silently; a re-encoding that differs means the text was not base64.
  if (key.length !== ENCRYPTION_KEY_BYTES || key.toString('base64').replace(/=+$/, '') !== text.replace(/=+$/, '')) {
    throw new Error(`${name} must be base64 of exactly ${ENCRYPTION_KEY_BYTES} bytes (generate one: openssl rand -base64 32)`);
  }
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
};

/** A key derived from the active encryption key for one purpose (e.g. signing cursors), never the key itself. */
export const deriveSubkey = (keys: EncryptionKey[], purpose: string): Buffer => {
  const [active] = keys;
  if (!active) throw new Error('deriveSubkey needs at least one encryption key');
  return Buffer.from(hkdfSync('sha256', active.key, Buffer.alloc(0), purpose, ENCRYPTION_KEY_BYTES));
};
