import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptedSecret } from '../integrations/integration.js';
import { ENCRYPTION_KEY_BYTES, type EncryptionKey } from './encryption-key.js';

export interface SecretBox {
  /** The id of the key `encrypt` uses; secrets stored under another id are due for re-encryption. */
  readonly activeKeyId: string;
  encrypt(plaintext: string): EncryptedSecret;
  decrypt(secret: EncryptedSecret): string;
}

/**
 * AES-256-GCM with a random 96-bit nonce per secret. `keys[0]` encrypts; every key decrypts what it encrypted,
 * so an operator rotates by putting the new key first and keeping the old one until secrets are re-encrypted.
 */
export const makeSecretBox = (keys: EncryptionKey[]): SecretBox => {
  const [active] = keys;
  if (!active) throw new Error('makeSecretBox needs at least one key');
  for (const k of keys) {
    if (k.key.length !== ENCRYPTION_KEY_BYTES) throw new Error(`encryption key ${k.id} must be ${ENCRYPTION_KEY_BYTES} bytes`);
  }
  return {
    activeKeyId: active.id,
    encrypt(plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', active.key, nonce);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return {
        keyId: active.id,
        nonce: nonce.toString('base64'),
        ciphertext: ciphertext.toString('base64'),
        tag: cipher.getAuthTag().toString('base64'),
      };
    },
    decrypt(secret) {
      const key = keys.find((k) => k.id === secret.keyId);
      if (!key) throw new Error(`no encryption key with id ${secret.keyId}`);
      const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(secret.nonce, 'base64'));
      decipher.setAuthTag(Buffer.from(secret.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(secret.ciphertext, 'base64')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
};
