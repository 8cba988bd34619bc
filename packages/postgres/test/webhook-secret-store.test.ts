import { randomBytes, randomUUID } from 'node:crypto';
import t from 'tap';
import { makeReencryptWebhookSecrets, makeSecretBox, type EncryptionKey } from '@garage/domain';
import { makeRepositories } from '../src/repositories/index.js';
import { makeWebhookSecretStore } from '../src/webhooks/secret-store.js';
import { newGarage } from '@garage/domain/testing';
import { backends } from '@garage/postgres/testing';

const key = (id: string): EncryptionKey => ({ id, key: randomBytes(32) });

for (const backend of backends) {
  t.test(backend.name, async (t) => {
    const { handle, drop } = await backend.open();
    t.teardown(drop);
    const repos = makeRepositories(handle.db);
    const store = makeWebhookSecretStore(handle.db);
    const [oldKey, newKey] = [key('old'), key('new')];
    const garage = await newGarage(repos);

    const plaintexts = new Map<string, string>();
    const create = async (box: ReturnType<typeof makeSecretBox>, n: number) => {
      for (let i = 0; i < n; i += 1) {
        const plaintext = `whsec_${randomBytes(32).toString('base64')}`;
        const id = randomUUID();
        const integration = await repos.integrations.create({
          id,
          garageId: garage.id,
          name: `i${i}`,
          sync: { appointments: false, catalog: false, stock: false },
          webhookUrl: null,
          apiKeyHash: randomBytes(32).toString('hex'),
          webhookSecret: box.encrypt(plaintext, id),
        });
        plaintexts.set(integration.id, plaintext);
      }
    };
    await create(makeSecretBox([oldKey]), 3);
    await create(makeSecretBox([newKey]), 2);

    t.test('lists the secrets under other keys, by id, page after page', async (t) => {
      const first = await store.listOutdated('new', 2, null);
      t.equal(first.length, 2);
      const rest = await store.listOutdated('new', 2, first.at(-1)?.integrationId ?? null);
      t.equal(rest.length, 1);
      const ids = [...first, ...rest].map((s) => s.integrationId);
      t.same(ids, [...ids].sort(), 'ordered by id');
      t.ok([...first, ...rest].every((s) => s.secret.keyId === 'old'));
      t.equal((await store.listOutdated('old', 10, null)).length, 2);
    });

    t.test('replace is a compare and set', async (t) => {
      const [stale] = await store.listOutdated('new', 1, null);
      if (!stale) throw new Error('expected a secret under the old key');
      const box = makeSecretBox([newKey, oldKey]);
      const next = box.encrypt(box.decrypt(stale.secret, stale.integrationId), stale.integrationId);
      const other = box.encrypt('whsec_other', stale.integrationId);
      t.equal(await store.replace(stale.integrationId, { ...stale.secret, nonce: 'AAAA' }, other), false, 'not when the secret changed');
      t.equal(await store.replace(stale.integrationId, stale.secret, next), true);
      t.equal(await store.replace(stale.integrationId, stale.secret, other), false, 'the second writer loses');
      t.same(await repos.integrations.getWebhookSecret(stale.integrationId), next);
    });

    t.test('re-encryption under the new key keeps every secret, and a second run finds nothing', async (t) => {
      const reencrypt = makeReencryptWebhookSecrets({ secrets: store, secretBox: makeSecretBox([newKey, oldKey]) });
      t.same(await reencrypt(), { reencrypted: 2 });
      t.same(await reencrypt(), { reencrypted: 0 });
      const onlyNew = makeSecretBox([newKey]);
      for (const [id, plaintext] of plaintexts) {
        const stored = await repos.integrations.getWebhookSecret(id);
        if (!stored) throw new Error(`no secret for ${id}`);
        t.equal(onlyNew.decrypt(stored, id), plaintext, 'decrypts with the new key alone');
      }
    });
  });
}
