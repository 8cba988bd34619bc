import t from 'tap';
import { makeResolveFleetGarage, type Authenticate, type Garage } from './support.js';

const GARAGE = { id: '11111111-1111-4111-8111-111111111111', slug: 'acme' } as Garage;

const resolver = () => {
  const lookups: string[] = [];
  const authenticate: Authenticate = async () => {
    throw new Error('no key in these tests');
  };
  const resolve = makeResolveFleetGarage({
    authenticate,
    garages: {
      findBySlug: async (slug) => {
        lookups.push(slug);
        return slug === GARAGE.slug ? GARAGE : null;
      },
    },
  });
  return { resolve, lookups };
};

t.test('a garageSlug no garage could have is refused with 400 before any lookup', async (t) => {
  const { resolve, lookups } = resolver();
  for (const garageSlug of ['', 'a'.repeat(64), 'Acme', 'ac me', 'acme--x', '-acme', 'acme-', 'a\u0000', 'caf\u00e9', '\ud800', 'a/b']) {
    await t.rejects(
      resolve({ apiKey: undefined, garageSlug }),
      { code: 'VALIDATION_FAILED', details: [{ path: '/garageSlug' }] },
      JSON.stringify(garageSlug),
    );
  }
  t.same(lookups, [], 'the repository was never asked');
});

t.test('a well-formed slug is looked up: known gives the garage, unknown 404', async (t) => {
  const { resolve, lookups } = resolver();
  t.same(await resolve({ apiKey: undefined, garageSlug: 'acme' }), { garageId: GARAGE.id, principal: null });
  await t.rejects(resolve({ apiKey: undefined, garageSlug: `${'a'.repeat(61)}-b` }), { code: 'NOT_FOUND' });
  t.same(lookups.length, 2);
});

t.test('a key is authenticated and gives its garage; no key and no slug is refused', async (t) => {
  const resolve = makeResolveFleetGarage({
    authenticate: async (apiKey) => {
      if (apiKey !== 'good') throw Object.assign(new Error('refused'), { code: 'UNAUTHORIZED' });
      return { integrationId: 'i', garageId: GARAGE.id, sync: { appointments: false, catalog: false, stock: false }, apiVersion: '2026-11-21', mode: 'live' };
    },
    garages: { findBySlug: async () => null },
  });
  t.match(await resolve({ apiKey: 'good', garageSlug: 'other' }), { garageId: GARAGE.id, principal: { integrationId: 'i' } }, 'the key wins over the slug');
  await t.rejects(resolve({ apiKey: 'bad', garageSlug: 'acme' }), { code: 'UNAUTHORIZED' }, 'a bad key does not fall back to the slug');
  await t.rejects(resolve({ apiKey: undefined, garageSlug: undefined }), { code: 'UNAUTHORIZED' });
});
