import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptedSecret } from '../integrations/integration.js';
import { ENCRYPTION_KEY_BYTES, type EncryptionKey } from './encryption-key.js';

/**
 * Marks the nonce of a secret sealed with its integration's id as associated data. Secrets written before that
 * have a bare base64 nonce: they still open, without associated data, until `secrets reencrypt` rewrites them.
 */
export const BOUND_NONCE_PREFIX = 'b1.';

/** GCM's full tag: a shorter one presented at decryption is refused rather than checked on fewer bits. */
const TAG_BYTES = 16;

export interface SecretBox {
  /** The id of the key `encrypt` uses; secrets stored under another id are due for re-encryption. */
  readonly activeKeyId: string;
  /** Seals `plaintext` for one integration: the ciphertext opens only with the same `integrationId`. */
  encrypt(plaintext: string, integrationId: string): EncryptedSecret;
  decrypt(secret: EncryptedSecret, integrationId: string): string;
  /** Sealed under the active key and bound to its integration: nothing left for `secrets reencrypt` to do. */
  isCurrent(secret: EncryptedSecret): boolean;
}

/**
 * AES-256-GCM with a random 96-bit nonce per secret and the integration's id as associated data, so that a
 * ciphertext copied onto another integration's row does not open there. `keys[0]` encrypts; every key decrypts what
 * it encrypted, so an operator rotates by putting the new key first and keeping the old one until secrets are
 * re-encrypted.
 */
export const makeSecretBox = (keys: EncryptionKey[]): SecretBox => {
  const [active] = keys;
  if (!active) throw new Error('makeSecretBox needs at least one key');
  for (const k of keys) {
    if (k.key.length !== ENCRYPTION_KEY_BYTES) throw new Error(`encryption key ${k.id} must be ${ENCRYPTION_KEY_BYTES} bytes`);
  }
  return {
    activeKeyId: active.id,
    encrypt(plaintext, integrationId) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', active.key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(integrationId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return {
        keyId: active.id,
        nonce: `${BOUND_NONCE_PREFIX}${nonce.toString('base64')}`,
        ciphertext: ciphertext.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
      };
    },
    decrypt(secret, integrationId) {
      const key = keys.find((k) => k.id === secret.keyId);
      if (!key) throw new Error(`no encryption key with id ${secret.keyId}`);
      const tag = Buffer.from(secret.tag, 'base64');
      if (tag.length !== TAG_BYTES) throw new Error(`the authentication tag must be ${TAG_BYTES} bytes`);
      const bound = secret.nonce.startsWith(BOUND_NONCE_PREFIX);
      const nonce = Buffer.from(bound ? secret.nonce.slice(BOUND_NONCE_PREFIX.length) : secret.nonce, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key.key, nonce, { authTagLength: TAG_BYTES });
      if (bound) decipher.setAAD(Buffer.from(integrationId, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(secret.ciphertext, 'base64')), decipher.final()]).toString('utf8');
    },
    isCurrent: (secret) => secret.keyId === active.id && secret.nonce.startsWith(BOUND_NONCE_PREFIX),
  };
};
