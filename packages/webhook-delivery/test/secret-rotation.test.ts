import { generateWebhookSecret, parseRetrySchedule } from '@garage/domain';
import { makeOutbox, makeRepositories } from '@garage/postgres';
import { newEncryptionKey } from '@garage/domain/testing';
import { memoryLogger, startReceiver } from '@garage/webhook-delivery/testing';
import { createTestDatabase, insertGarage, insertIntegration } from '@garage/postgres/testing';
import { Webhook } from 'standardwebhooks';
import t from 'tap';
import { API_VERSIONS } from '@garage/versions';
import { makeWebhookDelivery } from '../src/webhook-delivery.js';

/**
 * docs/reference/contract.md §5: during a secret rotation's overlap every delivery carries both signatures (`v1,<new> v1,<old>`), so
 * a receiver still holding the old secret and one already holding the new one both verify it, with the reference
 * Standard Webhooks library. Once the overlap ends only the new secret signs.
 */
t.test('a rotated webhook secret signs beside the old one until the overlap ends', async (t) => {
  const database = await createTestDatabase('rotation');
  t.teardown(database.drop);
  const { db } = database.handle;
  const encryption = newEncryptionKey();
  const receiver = await startReceiver();
  t.teardown(receiver.close);
  const garageId = await insertGarage(db);
  const integration = await insertIntegration(db, garageId, { webhookUrl: `${receiver.url}/hooks`, secretBox: encryption.secretBox });
  const repos = makeRepositories(db);
  const delivery = makeWebhookDelivery({ db, encryptionKeys: encryption.keys, schedule: parseRetrySchedule('1s'), versions: API_VERSIONS, logger: memoryLogger(), allowedNetworks: ['127.0.0.0/8', '::1/128'] });

  const newSecret = generateWebhookSecret();
  await repos.integrations.rotateWebhookSecret(integration.id, encryption.secretBox.encrypt(newSecret, integration.id), new Date(), 3_600_000);
  await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: { id: 'during' } });
  await delivery.deliverDue();
  await receiver.waitFor(1);
  const during = receiver.received[0]!;
  t.match(during.headers['webhook-signature'], /^v1,[A-Za-z0-9+/=]+ v1,[A-Za-z0-9+/=]+$/, 'two signatures, space-separated');
  t.match(new Webhook(newSecret).verify(during.body, during.headers), { data: { id: 'during' } }, 'verified with the new secret');
  t.match(new Webhook(integration.plaintext).verify(during.body, during.headers), { data: { id: 'during' } }, 'and with the old one');

  // The overlap ends: a rotation stamped long ago with a one-hour overlap has ended by the database's clock.
  const third = generateWebhookSecret();
  await repos.integrations.rotateWebhookSecret(integration.id, encryption.secretBox.encrypt(third, integration.id), new Date(Date.now() - 7_200_000), 3_600_000);
  await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: { id: 'after' } });
  await delivery.deliverDue();
  await receiver.waitFor(2);
  const after = receiver.received[1]!;
  t.match(after.headers['webhook-signature'], /^v1,[A-Za-z0-9+/=]+$/, 'one signature');
  t.match(new Webhook(third).verify(after.body, after.headers), { data: { id: 'after' } });
  t.throws(() => new Webhook(newSecret).verify(after.body, after.headers), 'the replaced secret no longer verifies');
});
