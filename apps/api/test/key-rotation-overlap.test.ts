import { testClock } from '@garage/domain/testing';
import t from 'tap';
import { build } from './helper.js';

/** docs/reference/contract.md §6 `integration rotate-key --overlap-hours`: the old key keeps working until the overlap ends. */
t.test('a key rotated with an overlap keeps working until previousKeyExpiresAt, then gets 401', async (t) => {
  // Each lookup moves the key cache's clock past its TTL, so that it reads the database (the production window is
  // tested in auth.test).
  const clock = testClock('2026-11-30T08:00:00Z');
  const { app, admin, db } = await build(t, { keyCacheTtlMs: 1, clock });
  await admin.createGarage({ slug: 'keys', name: 'Keys' });
  const created = await admin.createIntegration({ garageSlug: 'keys', name: 'shop', sync: ['catalog'], webhookUrl: null });
  const status = async (apiKey: string) => {
    clock.advance(2);
    return (await app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-api-key': apiKey } })).statusCode;
  };

  const rotated = await admin.rotateKey(created.integration.id, { overlapHours: 1 });
  t.equal(await status(rotated.apiKey), 200, 'the new key works');
  t.equal(await status(created.apiKey), 200, 'the old key still works during the overlap');

  // The overlap ends (as seen by the database's clock, which every instance shares).
  await db.handle.db
    .updateTable('integrations')
    .set({ previous_key_expires_at: new Date(Date.now() - 1_000) })
    .where('id', '=', created.integration.id)
    .execute();
  t.equal(await status(created.apiKey), 401, 'the old key is refused once the overlap has ended');
  t.equal(await status(rotated.apiKey), 200);

  const atOnce = await admin.rotateKey(created.integration.id);
  t.equal(await status(rotated.apiKey), 401, 'without an overlap the replaced key stops at once');
  t.equal(await status(atOnce.apiKey), 200);

  await admin.rotateKey(created.integration.id, { overlapHours: 24 });
  await admin.revokeIntegration(created.integration.id);
  t.equal(await status(atOnce.apiKey), 401, 'revoking ends the overlap too');
});
