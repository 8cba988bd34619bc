import { createHmac } from 'node:crypto';
import t from 'tap';
import { generateWebhookSecret, newEncryptionKey, signingSecrets, signWebhook, signWithEach, webhookBody } from './support.js';

t.test('matches the published Standard Webhooks example', async (t) => {
  t.equal(
    signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
});

t.test('keys the HMAC with the decoded secret bytes over id.timestamp.body', async (t) => {
  const secret = generateWebhookSecret();
  const body = '{"type":"lead.created","data":{"name":"Zoé"}}';
  const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`evt.1700000000.${body}`)
    .digest('base64');
  t.equal(signWebhook(secret, 'evt', 1700000000, body), `v1,${expected}`);
  t.not(signWebhook(secret, 'evt', 1700000001, body), `v1,${expected}`, 'the timestamp is signed');
  t.not(signWebhook(secret, 'evt2', 1700000000, body), `v1,${expected}`, 'the id is signed');
  t.not(signWebhook(secret, 'evt', 1700000000, `${body} `), `v1,${expected}`, 'every byte of the body is signed');
});

t.test('an empty secret is refused rather than signing with no key', async (t) => {
  t.throws(() => signWebhook('whsec_', 'id', 1, '{}'), /empty/);
});

t.test('the body is type, RFC 3339 timestamp and data, the same bytes every time', async (t) => {
  const event = {
    id: 'e1',
    type: 'quote.accepted' as const,
    occurredAt: new Date('2030-01-07T09:00:00.123Z'),
    livemode: true,
    data: { id: 'q1', totalCents: 12000 },
  };
  const body = webhookBody(event);
  t.equal(body, '{"type":"quote.accepted","timestamp":"2030-01-07T09:00:00.123Z","livemode":true,"data":{"id":"q1","totalCents":12000}}');
  t.equal(webhookBody(structuredClone(event)), body);
});

t.test('during a secret rotation: both signatures, the new one first; a previous secret no key opens is left out', async (t) => {
  const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
  t.equal(signWithEach([current, previous], 'id', 1, 'b'), `${signWebhook(current, 'id', 1, 'b')} ${signWebhook(previous, 'id', 1, 'b')}`);
  const box = newEncryptionKey().secretBox;
  const retired = newEncryptionKey().secretBox;
  t.same(signingSecrets(box, 'i1', box.encrypt(current, 'i1'), box.encrypt(previous, 'i1')), [current, previous]);
  t.same(signingSecrets(box, 'i1', box.encrypt(current, 'i1'), null), [current]);
  t.same(signingSecrets(box, 'i1', box.encrypt(current, 'i1'), retired.encrypt(previous, 'i1')), [current], 'sealed under a retired key');
  t.throws(() => signingSecrets(box, 'i1', retired.encrypt(current, 'i1'), null), 'the current secret must open');
});
