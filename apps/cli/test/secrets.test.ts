import { randomBytes } from 'node:crypto';
import t from 'tap';
import { makeSecretBox, type EncryptedSecret } from '@garage/domain';
import { parseEncryptionKey } from '@garage/domain';
import { cliFails, cliJson, runCli, LOOPBACK_WEBHOOKS } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

const { env, query } = await cliDatabase(t);
const oldKey = env.ENCRYPTION_KEY as string;
const newKey = randomBytes(32).toString('base64');

interface SecretRow {
  id: string;
  key_id: string;
  nonce: string;
  ciphertext: string;
  tag: string;
}
const storedSecrets = async () =>
  query<SecretRow>(
    `select id, webhook_secret_key_id as key_id, webhook_secret_nonce as nonce, webhook_secret_ciphertext as ciphertext,
       webhook_secret_tag as tag from integrations order by id`,
  );
const asSecret = (row: SecretRow): EncryptedSecret => ({ keyId: row.key_id, nonce: row.nonce, ciphertext: row.ciphertext, tag: row.tag });

t.test('rotating ENCRYPTION_KEY: secrets are re-encrypted under the new key and stay the same secrets', async (t) => {
  await cliJson(t, ['garage', 'create', '--slug', 'rot', '--name', 'Rotation'], env);
  const created = new Map<string, string>();
  const made = await cliJson(t, ['integration', 'create', '--garage', 'rot', '--name', 'shop', '--webhook-url', 'http://127.0.0.1:9/hook'], { ...env, ...LOOPBACK_WEBHOOKS });
  created.set(made.id, made.webhookSecret);
  // The sandbox's test webhook secret is sealed like the live one, to its own row.
  const testSideOf = async (id: string) => (await query<{ id: string }>('select id from integrations where live_integration_id = $1', [id]))[0]!.id;
  created.set(await testSideOf(made.id), made.testWebhookSecret);
  const before = await storedSecrets();

  await cliFails(t, ['secrets', 'reencrypt', '--json'], { ...env, ENCRYPTION_KEY: newKey }, 3, [/cannot decrypt the webhook secret of integration/]);
  t.same(await storedSecrets(), before, 'nothing written without the former key');

  const rotated = { ...env, ENCRYPTION_KEY: newKey, ENCRYPTION_KEY_PREVIOUS: oldKey };
  // During the rotation, new integrations are encrypted under the new key already.
  const third = await cliJson(t, ['integration', 'create', '--garage', 'rot', '--name', 'pos'], rotated);
  created.set(third.id, third.webhookSecret);
  created.set(await testSideOf(third.id), third.testWebhookSecret);

  t.same(await cliJson(t, ['secrets', 'reencrypt'], rotated), { reencrypted: 2 }, 'the live and the test secret of the first');
  t.same(await cliJson(t, ['secrets', 'reencrypt'], rotated), { reencrypted: 0 }, 'a second run has nothing to do');
  const human = await runCli(['secrets', 'reencrypt'], { ...env, ENCRYPTION_KEY: newKey });
  t.equal(human.stdout, 'Every webhook secret is already encrypted under ENCRYPTION_KEY.\n', 'the former key is no longer needed');

  const onlyNew = makeSecretBox([parseEncryptionKey(newKey, 'new key')]);
  const after = await storedSecrets();
  t.equal(after.length, 4);
  for (const row of after) t.equal(onlyNew.decrypt(asSecret(row), row.id), created.get(row.id), 'the same secret, readable with the new key alone');
});

t.test('a malformed former key stops the command without echoing it', async (t) => {
  await cliFails(t, ['secrets', 'reencrypt', '--json'], { ...env, ENCRYPTION_KEY_PREVIOUS: 'bm90LWEta2V5' }, 1, [/ENCRYPTION_KEY_PREVIOUS entry #1/]).then(
    (result) => t.notMatch(result.stderr, /bm90LWEta2V5/),
  );
});
