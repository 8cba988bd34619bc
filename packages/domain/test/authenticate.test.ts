import t from 'tap';
import { generateApiKey, makeAuthenticate, sha256Hex, testClock, type Integration } from './support.js';

/** An integration with only the catalog toggle on. */
const shop = (): Integration => ({
  id: '2f0c4a53-8f4e-4a3b-9a39-0a7c7b1e5d11',
  garageId: '7b0e2a8c-3c1f-4d7e-8a55-5f0f3b9d2c44',
  name: 'Shop',
  sync: { appointments: false, catalog: true, stock: false },
  webhookUrl: null,
  revokedAt: null,
  lastUsedAt: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  apiVersion: '2026-11-21',
  mode: 'live',
});

// `lastUsedAt` (shown by `integration list`, docs/reference/contract.md §6, admin CLI) follows use, but a read never writes more than once a
// minute per integration.
t.test('a test key gives the sandbox garage and says test mode', async (t) => {
  const key = generateApiKey();
  const testSide: Integration = { ...shop(), id: '0d6c1b1e-4a5f-4f3b-9f7c-2b0d1e7e9a10', garageId: '9a1e6f0b-2c3d-4e5f-8a9b-0c1d2e3f4a5b', mode: 'test' };
  const authenticate = makeAuthenticate({
    integrations: { findActiveByKeyHash: async (hash) => (hash === sha256Hex(key) ? testSide : null), touchLastUsed: async () => {} },
    clock: testClock('2026-01-01T00:00:00Z'),
  });
  t.match(await authenticate(key, 'catalog'), { integrationId: testSide.id, garageId: testSide.garageId, mode: 'test' });
});

t.test('a valid key records its use at most once a minute; an invalid one never', async (t) => {
  const clock = testClock('2026-12-01T09:00:00Z');
  const key = generateApiKey();
  const integration = shop();
  const touches: [string, string][] = [];
  const authenticate = makeAuthenticate({
    integrations: {
      findActiveByKeyHash: async (hash) => (hash === sha256Hex(key) ? integration : null),
      touchLastUsed: async (id, at) => void touches.push([id, at.toISOString()]),
    },
    clock,
  });

  t.same(await authenticate(key, 'catalog'), { integrationId: integration.id, garageId: integration.garageId, sync: integration.sync, apiVersion: integration.apiVersion, mode: 'live' });
  t.same(touches, [[integration.id, '2026-12-01T09:00:00.000Z']], 'the first use is recorded at the clock time');
  clock.advance(59_999);
  await authenticate(key, null);
  t.equal(touches.length, 1, 'within the minute: no write');
  clock.advance(1);
  await authenticate(key, 'catalog');
  t.same(touches.at(-1), [integration.id, '2026-12-01T09:01:00.000Z'], 'a minute later: recorded again');
  await t.rejects(authenticate(generateApiKey(), 'catalog'), { code: 'UNAUTHORIZED' });
  await t.rejects(authenticate(key, 'stock'), { code: 'UNAUTHORIZED' }, 'toggle off');
  t.equal(touches.length, 2, 'refused keys record nothing');
});

t.test('every refusal is a rejected promise: no key, a malformed key, an unknown key, a toggle off', async (t) => {
  const key = generateApiKey();
  const integration = shop();
  const authenticate = makeAuthenticate({
    integrations: { findActiveByKeyHash: async (hash) => (hash === sha256Hex(key) ? integration : null), touchLastUsed: async () => {} },
    clock: testClock('2026-12-01T09:00:00Z'),
  });
  t.same(await authenticate(key, 'catalog'), { integrationId: integration.id, garageId: integration.garageId, sync: integration.sync, apiVersion: integration.apiVersion, mode: 'live' });
  for (const [apiKey, toggle, why] of [
    [key, 'stock', 'toggle off'],
    [generateApiKey(), null, 'unknown key'],
    ['not a key', null, 'malformed key'],
    [undefined, null, 'no key'],
  ] as const) {
    const answer = authenticate(apiKey, toggle);
    t.type(answer, Promise, `${why}: a promise, never a throw`);
    await t.rejects(answer, { code: 'UNAUTHORIZED' }, why);
  }
});
