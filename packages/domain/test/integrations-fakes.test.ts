import { randomUUID } from 'node:crypto';
import t from 'tap';
import { generateApiKey, makeAuthenticate, makeCursorCodec, makeListIntegrationDeliveries, makeListIntegrationEvents, makeReencryptWebhookSecrets, makeSecretBox, makeTestWebhook, sha256Hex } from '../src/index.js';
import { makeInMemoryIntegrations, makeInMemoryWebhooks, makeRecordingSender, newEncryptionKey, newIntegration, testClock } from '../src/testing/index.js';

const GARAGE = '7d1f6a4e-0000-4000-8000-000000000003';
const OLD_KEY = generateApiKey();
const NEW_KEY = generateApiKey();

t.test('the in-memory integrations serve authentication, the webhook test and re-encryption', async (t) => {
  const clock = testClock('2026-11-27T10:00:00Z');
  const { integrations, secrets } = makeInMemoryIntegrations({ clock });
  const first = newEncryptionKey();
  const { input, plaintext } = newIntegration(GARAGE, { webhookUrl: 'https://shop.example/hooks', syncAppointments: true, secretBox: first.secretBox });
  await integrations.create({ ...input, apiKeyHash: sha256Hex(OLD_KEY) });

  const authenticate = makeAuthenticate({ integrations, clock });
  t.match(await authenticate(OLD_KEY, 'appointments'), { integrationId: input.id, garageId: GARAGE });
  await integrations.rotateKey(input.id, sha256Hex(NEW_KEY), clock.now(), 60_000);
  t.match(await authenticate(OLD_KEY, null), { integrationId: input.id }, 'the old key works during the overlap');
  clock.advance(60_000);
  await t.rejects(authenticate(OLD_KEY, null), { code: 'UNAUTHORIZED' }, 'and not after it');
  t.match(await authenticate(NEW_KEY, null), { integrationId: input.id });

  const { sender, sent } = makeRecordingSender();
  const testWebhook = makeTestWebhook({ integrations, secrets: first.secretBox, sender, clock, renderBody: (event) => JSON.stringify(event.data) });
  t.match(await testWebhook(input.id), { delivered: true, responseStatus: 204 });
  t.equal(sent[0]?.url, 'https://shop.example/hooks');
  t.equal(sent[0]?.body, JSON.stringify({ integrationId: input.id }));

  const second = newEncryptionKey();
  const both = makeSecretBox([...second.keys, ...first.keys]);
  t.same(await makeReencryptWebhookSecrets({ secrets, secretBox: both })(), { reencrypted: 1 });
  const stored = await integrations.getWebhookSecret(input.id);
  t.equal(both.decrypt(stored!, input.id), plaintext, 'the secret is the same, under the new key');
  t.same(await secrets.listOutdated(both.activeKeyId, 10, null), []);

  await integrations.revoke(input.id, clock.now());
  await t.rejects(authenticate(NEW_KEY, null), { code: 'UNAUTHORIZED' });
  t.same(await integrations.listWebhookTargets(GARAGE), []);
});

t.test('the in-memory webhook feed lists an integration\'s deliveries and the events that reach it', async (t) => {
  const clock = testClock('2026-11-27T10:00:00Z');
  const { integrations } = makeInMemoryIntegrations({ clock });
  const webhooks = makeInMemoryWebhooks({ integrations, clock });
  const cursors = makeCursorCodec(Buffer.alloc(32, 3));
  const { input } = newIntegration(GARAGE, { webhookUrl: 'https://shop.example/hooks', syncAppointments: false });
  await integrations.create(input);
  for (const type of ['lead.created', 'appointment.created', 'quote.accepted'] as const) {
    clock.advance(1000);
    await webhooks.outbox.enqueue({ garageId: GARAGE, type, data: { type } });
  }
  await webhooks.outbox.enqueue({ garageId: '7d1f6a4e-0000-4000-8000-000000000009', type: 'lead.created', data: {} });

  const events = makeListIntegrationEvents({ feed: webhooks.feed, cursors });
  const first = await events({ integrationId: input.id, limit: 1, cursor: null, type: null, since: null });
  const rest = await events({ integrationId: input.id, limit: 5, cursor: first.nextCursor, type: null, since: null });
  t.same([...first.data, ...rest.data].map((e) => e.type), ['lead.created', 'quote.accepted'], 'oldest first; appointments only with syncAppointments');

  const deliveries = await makeListIntegrationDeliveries({ feed: webhooks.feed, cursors })({ integrationId: input.id, limit: 5, cursor: null, status: null, type: null });
  t.same(deliveries.data.map((d) => [d.type, d.status, d.attemptCount]), [['quote.accepted', 'pending', 0], ['lead.created', 'pending', 0]], 'newest first');
  t.equal(await webhooks.feed.findDelivery(randomUUID(), deliveries.data[0]!.id), null, 'another integration\'s delivery is not found');
});
