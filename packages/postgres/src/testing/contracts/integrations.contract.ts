import { randomBytes, randomUUID } from 'node:crypto';
import type { NewIntegration, Repositories, SyncToggles } from '@garage/domain';
import { newGarage } from '@garage/domain/testing';
import type { Contract } from './harness.js';

const hash = () => randomBytes(32).toString('hex');
const secret = { keyId: 'k1', nonce: 'bm9uY2U=', ciphertext: 'Y2lwaGVy', tag: 'dGFn' };
const noSync: SyncToggles = { appointments: false, catalog: false, stock: false };

const newIntegration = (repos: Repositories, garageId: string, extra: Partial<NewIntegration> = {}) =>
  repos.integrations.create({
    id: randomUUID(),
    garageId,
    name: 'Shop',
    sync: noSync,
    webhookUrl: null,
    apiKeyHash: hash(),
    webhookSecret: secret,
    ...extra,
  });

export const integrationRepositoryContract: Contract = (t, { repos }) => {
  t.test('a created integration exposes its public fields only, never the key hash or the secret', async (t) => {
    const garage = await newGarage(repos);
    const created = await newIntegration(repos, garage.id, {
      sync: { appointments: true, catalog: false, stock: true },
      webhookUrl: 'https://shop.example/hooks',
    });
    t.same(Object.keys(created).sort(), [
      'apiVersion', 'createdAt', 'garageId', 'id', 'lastUsedAt', 'mode', 'name', 'revokedAt', 'sync', 'webhookUrl',
    ]);
    t.match(created, {
      garageId: garage.id,
      name: 'Shop',
      sync: { appointments: true, catalog: false, stock: true },
      webhookUrl: 'https://shop.example/hooks',
      mode: 'live',
      revokedAt: null,
      lastUsedAt: null,
      createdAt: Date,
    });
    t.same(await repos.integrations.findById(created.id), created);
    t.same(await repos.integrations.listByGarage(garage.id), [created]);
    t.same(await repos.integrations.getWebhookSecret(created.id), secret);
  });

  t.test('lookups by an unknown or malformed id find nothing', async (t) => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      t.equal(await repos.integrations.findById(id), null);
      t.equal(await repos.integrations.getWebhookSecret(id), null);
      t.equal(await repos.integrations.revoke(id, new Date()), null);
      t.equal(await repos.integrations.rotateKey(id, hash(), new Date(), 0), null);
      t.equal(await repos.integrations.update(id, { name: 'x' }), null);
      t.equal(await repos.integrations.getWebhookSecrets(id), null);
      await repos.integrations.touchLastUsed(id, new Date());
    }
    t.same(await repos.integrations.listByGarage('not-a-uuid'), []);
    t.equal(await repos.integrations.findActiveByKeyHash(hash()), null);
  });

  t.test('a revoked integration is not found by its key hash, and keeps its first revocation time', async (t) => {
    const garage = await newGarage(repos);
    const keyHash = hash();
    const created = await newIntegration(repos, garage.id, { apiKeyHash: keyHash });
    t.equal((await repos.integrations.findActiveByKeyHash(keyHash))?.id, created.id);
    const first = new Date('2026-03-01T10:00:00.123Z');
    t.same((await repos.integrations.revoke(created.id, first))?.revokedAt, first);
    t.equal(await repos.integrations.findActiveByKeyHash(keyHash), null);
    t.same((await repos.integrations.revoke(created.id, new Date('2026-03-02T10:00:00Z')))?.revokedAt, first);
    t.equal(await repos.integrations.rotateKey(created.id, hash(), new Date(), 0), null, 'a revoked key cannot rotate');
    t.equal(await repos.integrations.update(created.id, { name: 'Later' }), null, 'a revoked integration cannot change');
  });

  t.test('rotating a key replaces the hash that authenticates', async (t) => {
    const garage = await newGarage(repos);
    const oldHash = hash();
    const newHash = hash();
    const created = await newIntegration(repos, garage.id, { apiKeyHash: oldHash });
    const at = new Date();
    const rotated = await repos.integrations.rotateKey(created.id, newHash, at, 0);
    t.equal(rotated?.integration.id, created.id);
    t.same(rotated?.previousKeyExpiresAt, at, 'no overlap: the old key ended at the rotation');
    t.equal(await repos.integrations.findActiveByKeyHash(oldHash), null);
    t.equal((await repos.integrations.findActiveByKeyHash(newHash))?.id, created.id);
  });

  t.test('with an overlap the old key keeps working until it ends, by the database clock', async (t) => {
    const garage = await newGarage(repos);
    const [first, second, third] = [hash(), hash(), hash()];
    const created = await newIntegration(repos, garage.id, { apiKeyHash: first });
    const at = new Date();
    const rotated = await repos.integrations.rotateKey(created.id, second, at, 3_600_000);
    t.same(rotated?.previousKeyExpiresAt, new Date(at.getTime() + 3_600_000));
    t.equal((await repos.integrations.findActiveByKeyHash(first))?.id, created.id, 'old key, within the overlap');
    t.equal((await repos.integrations.findActiveByKeyHash(second))?.id, created.id, 'new key');
    // An overlap that already ended (a rotation stamped in the past) no longer lets the key in.
    await repos.integrations.rotateKey(created.id, third, new Date(Date.now() - 7_200_000), 3_600_000);
    t.equal(await repos.integrations.findActiveByKeyHash(second), null, 'a key whose overlap ended is refused');
    t.equal(await repos.integrations.findActiveByKeyHash(first), null, 'only the last replaced key is kept');
    await repos.integrations.revoke(created.id, new Date());
    t.equal(await repos.integrations.findActiveByKeyHash(third), null);
  });

  t.test('rotating the webhook secret keeps the old one beside it while the overlap lasts', async (t) => {
    const garage = await newGarage(repos);
    const created = await newIntegration(repos, garage.id, { webhookUrl: 'https://hooks.example/' });
    const next = { ...secret, keyId: 'k2', ciphertext: 'bmV4dA==' };
    const at = new Date();
    const rotated = await repos.integrations.rotateWebhookSecret(created.id, next, at, 3_600_000);
    t.same(rotated?.previousSecretExpiresAt, new Date(at.getTime() + 3_600_000));
    t.same(await repos.integrations.getWebhookSecrets(created.id), { current: next, previous: secret });
    t.same(await repos.integrations.getWebhookSecret(created.id), next);
    const third = { ...secret, keyId: 'k3' };
    await repos.integrations.rotateWebhookSecret(created.id, third, new Date(Date.now() - 7_200_000), 3_600_000);
    t.same(await repos.integrations.getWebhookSecrets(created.id), { current: third, previous: null }, 'overlap over');
    await repos.integrations.rotateWebhookSecret(created.id, secret, new Date(), 0);
    t.same(await repos.integrations.getWebhookSecrets(created.id), { current: secret, previous: null }, 'no overlap');
  });

  t.test('update changes only what it is given', async (t) => {
    const garage = await newGarage(repos);
    const created = await newIntegration(repos, garage.id, { webhookUrl: 'https://hooks.example/a' });
    const renamed = await repos.integrations.update(created.id, { name: 'Renamed' });
    t.match(renamed, { name: 'Renamed', sync: noSync, webhookUrl: 'https://hooks.example/a' });
    const toggled = await repos.integrations.update(created.id, { sync: { appointments: true, catalog: true, stock: false } });
    t.match(toggled, { name: 'Renamed', sync: { appointments: true, catalog: true, stock: false }, webhookUrl: 'https://hooks.example/a' });
    t.match(await repos.integrations.update(created.id, { webhookUrl: 'https://hooks.example/b' }), { webhookUrl: 'https://hooks.example/b' });
    t.match(await repos.integrations.update(created.id, { webhookUrl: null }), { name: 'Renamed', webhookUrl: null });
    t.same(await repos.integrations.findById(created.id), await repos.integrations.update(created.id, {}));
  });

  t.test('last use is recorded and never moves back', async (t) => {
    const garage = await newGarage(repos);
    const created = await newIntegration(repos, garage.id);
    const later = new Date('2026-05-01T12:00:00.456Z');
    await repos.integrations.touchLastUsed(created.id, later);
    await repos.integrations.touchLastUsed(created.id, new Date('2026-04-01T12:00:00Z'));
    t.same((await repos.integrations.findById(created.id))?.lastUsedAt, later);
  });

  t.test('webhook targets: not revoked, with a URL, with the toggle when one is required', async (t) => {
    const garage = await newGarage(repos);
    const url = 'https://hooks.example/';
    const booking = await newIntegration(repos, garage.id, { webhookUrl: url, sync: { ...noSync, appointments: true } });
    const plain = await newIntegration(repos, garage.id, { webhookUrl: url });
    await newIntegration(repos, garage.id, { sync: { ...noSync, appointments: true } });
    const revoked = await newIntegration(repos, garage.id, { webhookUrl: url, sync: { ...noSync, appointments: true } });
    await repos.integrations.revoke(revoked.id, new Date());
    const other = await newGarage(repos);
    await newIntegration(repos, other.id, { webhookUrl: url });
    const ids = async (toggle?: 'appointments') =>
      (await repos.integrations.listWebhookTargets(garage.id, toggle)).map((i) => i.id).sort();
    t.same(await ids(), [booking.id, plain.id].sort());
    t.same(await ids('appointments'), [booking.id]);
  });

  t.test('an unknown garage is INVALID_REFERENCE; a reused key hash is DUPLICATE', async (t) => {
    await t.rejects(newIntegration(repos, randomUUID()), { code: 'INVALID_REFERENCE' });
    const garage = await newGarage(repos);
    const keyHash = hash();
    await newIntegration(repos, garage.id, { apiKeyHash: keyHash });
    await t.rejects(newIntegration(repos, garage.id, { apiKeyHash: keyHash }), { code: 'DUPLICATE' });
  });

  t.test('the test side of an integration: its own key and URL; name, toggles, pin and revocation follow the live side', async (t) => {
    const [garage, sandbox] = [await newGarage(repos), await newGarage(repos)];
    const live = await newIntegration(repos, garage.id, { webhookUrl: 'https://shop.example/live' });
    const testKey = hash();
    const testSide = await newIntegration(repos, sandbox.id, { liveIntegrationId: live.id, apiKeyHash: testKey, webhookUrl: 'https://shop.example/test' });
    t.equal(testSide.mode, 'test');
    t.equal((await repos.integrations.findActiveByKeyHash(testKey))?.id, testSide.id);
    t.equal((await repos.integrations.findTestSide(live.id))?.id, testSide.id);
    t.equal(await repos.integrations.findTestSide(testSide.id), null);
    t.same(await repos.integrations.listSandboxes(garage.id), [{ liveIntegrationId: live.id, garageSlug: sandbox.slug, webhookUrl: 'https://shop.example/test' }]);
    t.same(await repos.integrations.listByGarage(garage.id).then((all) => all.map((i) => i.id)), [live.id], 'the test side is not listed with the live ones');
    const all: SyncToggles = { appointments: true, catalog: true, stock: true };
    await repos.integrations.update(live.id, { name: 'Renamed', sync: all, apiVersion: '2026-11-26', webhookUrl: 'https://shop.example/live-2' });
    t.match(await repos.integrations.findById(testSide.id), { name: 'Renamed', sync: all, apiVersion: '2026-11-26', webhookUrl: 'https://shop.example/test' });
    await repos.integrations.revoke(live.id, new Date());
    t.not((await repos.integrations.findById(testSide.id))?.revokedAt, null, 'revoking the integration revokes its test key');
    t.equal(await repos.integrations.findActiveByKeyHash(testKey), null);
  });
};
