import { randomBytes, randomUUID } from 'node:crypto';
import t from 'tap';
import {
  makeReencryptWebhookSecrets,
  makeSecretBox,
  type EncryptedSecret,
  type WebhookSecretStore,
} from './support.js';

const oldKey = { id: 'old', key: randomBytes(32) };
const newKey = { id: 'new', key: randomBytes(32) };

/** The port's behaviour in memory: ordered by id, compare and set on the whole stored value. */
const fakeStore = (secrets: Map<string, EncryptedSecret>, beforeReplace: (id: string) => void = () => {}): WebhookSecretStore => ({
  async listNotUnderKey(keyId, limit, afterId) {
    return [...secrets]
      .filter(([id, s]) => s.keyId !== keyId && (afterId === null || id > afterId))
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
    secrets.set(id, box.encrypt(plaintext));
    plaintexts.set(id, plaintext);
  }
  return { secrets, plaintexts };
};

t.test('every secret ends under the active key with the same plaintext, across batches', async (t) => {
  const { secrets, plaintexts } = seed(250);
  const reencrypt = makeReencryptWebhookSecrets({ secrets: fakeStore(secrets), secretBox: makeSecretBox([newKey, oldKey]) });
  t.same(await reencrypt(), { reencrypted: 250 });
  const onlyNew = makeSecretBox([newKey]);
  t.ok([...secrets].every(([id, s]) => s.keyId === 'new' && onlyNew.decrypt(s) === plaintexts.get(id)));
  t.same(await reencrypt(), { reencrypted: 0 }, 'nothing left to do');
});

t.test('a secret changed meanwhile is left alone and not counted', async (t) => {
  const { secrets } = seed(3);
  const [changed] = [...secrets.keys()];
  const box = makeSecretBox([newKey, oldKey]);
  const store = fakeStore(secrets, (id) => {
    if (id === changed) secrets.set(id, box.encrypt('whsec_rotated_by_someone_else'));
  });
  t.same(await makeReencryptWebhookSecrets({ secrets: store, secretBox: box })(), { reencrypted: 2 });
  t.equal(box.decrypt(secrets.get(changed as string) as EncryptedSecret), 'whsec_rotated_by_someone_else');
});

t.test('a secret under an unknown key stops the run with a message naming the integration and key id', async (t) => {
  const { secrets } = seed(1, makeSecretBox([{ id: 'lost', key: randomBytes(32) }]));
  const [id] = [...secrets.keys()];
  await t.rejects(makeReencryptWebhookSecrets({ secrets: fakeStore(secrets), secretBox: makeSecretBox([newKey, oldKey]) })(), {
    message: new RegExp(`integration ${id} \\(key id lost\\)`),
  });
});
