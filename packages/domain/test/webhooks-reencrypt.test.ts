import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import t from 'tap';
import {
  BOUND_NONCE_PREFIX,
  makeReencryptWebhookSecrets,
  makeSecretBox,
  type EncryptedSecret,
  type WebhookSecretStore,
} from './support.js';

const oldKey = { id: 'old', key: randomBytes(32) };
const newKey = { id: 'new', key: randomBytes(32) };

/** The port's behaviour in memory: ordered by id, compare and set on the whole stored value. */
const fakeStore = (secrets: Map<string, EncryptedSecret>, beforeReplace: (id: string) => void = () => {}): WebhookSecretStore => ({
  async listOutdated(keyId, limit, afterId) {
    return [...secrets]
      .filter(([id, s]) => (s.keyId !== keyId || !s.nonce.startsWith(BOUND_NONCE_PREFIX)) && (afterId === null || id > afterId))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .slice(0, limit)
      .map(([integrationId, secret]) => ({ integrationId, secret }));
  },
  async replace(id, expected, next) {
    beforeReplace(id);
    if (JSON.stringify(secrets.get(id)) !== JSON.stringify(expected)) return false;
    secrets.set(id, next);
    return true;
  },
});

const seed = (count: number, box = makeSecretBox([oldKey])) => {
  const secrets = new Map<string, EncryptedSecret>();
  const plaintexts = new Map<string, string>();
  for (let i = 0; i < count; i += 1) {
    const id = randomUUID();
    const plaintext = `whsec_${randomBytes(32).toString('base64')}`;
    secrets.set(id, box.encrypt(plaintext, id));
    plaintexts.set(id, plaintext);
  }
  return { secrets, plaintexts };
};

t.test('every secret ends under the active key with the same plaintext, across batches', async (t) => {
  const { secrets, plaintexts } = seed(250);
  const reencrypt = makeReencryptWebhookSecrets({ secrets: fakeStore(secrets), secretBox: makeSecretBox([newKey, oldKey]) });
  t.same(await reencrypt(), { reencrypted: 250 });
  const onlyNew = makeSecretBox([newKey]);
  t.ok([...secrets].every(([id, s]) => s.keyId === 'new' && onlyNew.decrypt(s, id) === plaintexts.get(id)));
  t.same(await reencrypt(), { reencrypted: 0 }, 'nothing left to do');
});

t.test('a secret changed meanwhile is left alone and not counted', async (t) => {
  const { secrets } = seed(3);
  const [changed] = [...secrets.keys()];
  const box = makeSecretBox([newKey, oldKey]);
  const store = fakeStore(secrets, (id) => {
    if (id === changed) secrets.set(id, box.encrypt('whsec_rotated_by_someone_else', id));
  });
  t.same(await makeReencryptWebhookSecrets({ secrets: store, secretBox: box })(), { reencrypted: 2 });
  t.equal(box.decrypt(secrets.get(changed as string) as EncryptedSecret, changed as string), 'whsec_rotated_by_someone_else');
});

t.test('a secret under an unknown key stops the run with a message naming the integration and key id', async (t) => {
  const { secrets } = seed(1, makeSecretBox([{ id: 'lost', key: randomBytes(32) }]));
  const [id] = [...secrets.keys()];
  await t.rejects(makeReencryptWebhookSecrets({ secrets: fakeStore(secrets), secretBox: makeSecretBox([newKey, oldKey]) })(), {
    message: new RegExp(`integration ${id} \\(key id lost\\)`),
  });
});

/** A secret as stored before secrets were bound to their integration: AES-GCM without associated data. */
const legacySeal = (key: { id: string; key: Buffer }, plaintext: string): EncryptedSecret => {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, nonce);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { keyId: key.id, nonce: nonce.toString('base64'), ciphertext: ciphertext.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
};

t.test('a secret is bound to its integration: moved onto another one, it does not open', async (t) => {
  const box = makeSecretBox([newKey]);
  const [mine, theirs] = [randomUUID(), randomUUID()];
  const sealed = box.encrypt('whsec_mine', mine);
  t.equal(box.decrypt(sealed, mine), 'whsec_mine');
  t.throws(() => box.decrypt(sealed, theirs), 'another integration cannot open it');
  t.throws(() => box.decrypt({ ...sealed, nonce: sealed.nonce.slice(BOUND_NONCE_PREFIX.length) }, theirs), 'nor by dropping the marker');
  t.throws(() => box.decrypt({ ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, 4).toString('base64') }, mine), /16 bytes/, 'a truncated tag is refused');
});

t.test('secrets written before binding still open, and re-encryption binds them', async (t) => {
  const id = randomUUID();
  const secrets = new Map<string, EncryptedSecret>([[id, legacySeal(newKey, 'whsec_legacy')]]);
  const box = makeSecretBox([newKey]);
  t.equal(box.decrypt(secrets.get(id) as EncryptedSecret, id), 'whsec_legacy', 'a legacy ciphertext decrypts');
  t.notOk(box.isCurrent(secrets.get(id) as EncryptedSecret), 'due for re-encryption although under the active key');
  t.same(await makeReencryptWebhookSecrets({ secrets: fakeStore(secrets), secretBox: box })(), { reencrypted: 1 });
  const rewritten = secrets.get(id) as EncryptedSecret;
  t.ok(rewritten.nonce.startsWith(BOUND_NONCE_PREFIX), 'the new form');
  t.equal(box.decrypt(rewritten, id), 'whsec_legacy');
  t.throws(() => box.decrypt(rewritten, randomUUID()));
});
