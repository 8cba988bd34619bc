import { randomBytes } from 'node:crypto';
import { makeSecretBox, parseEncryptionKey, type EncryptionKey, type SecretBox } from '../../index.js';

/** An ENCRYPTION_KEY value, the key ring the API would derive from it, and the secret box sealing with it. */
export const newEncryptionKey = (): { env: string; keys: EncryptionKey[]; secretBox: SecretBox } => {
  const env = randomBytes(32).toString('base64');
  const keys = [parseEncryptionKey(env, 'ENCRYPTION_KEY')];
  return { env, keys, secretBox: makeSecretBox(keys) };
};
