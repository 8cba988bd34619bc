import { randomBytes, randomUUID } from 'node:crypto';
import { newGarage } from '@garage/domain/testing';
import { sql } from 'kysely';
import { makePortalStore, makeRequestLog } from '../src/index.js';
import { requestRecord as record } from './fixtures/request-records.js';
import { runContract } from '../src/testing/index.js';

/** The request log and the portal's store (migration 0019), on Postgres and PGlite alike. */

runContract((t, { repos, handle }) => {
  const log = makeRequestLog(handle.db);
  const portal = makePortalStore(handle.db);
  const integration = async () => {
    const garage = await newGarage(repos);
    return repos.integrations.create({
      id: randomUUID(),
      garageId: garage.id,
      name: 'Shop',
      sync: { appointments: false, catalog: true, stock: false },
      webhookUrl: null,
      apiKeyHash: randomBytes(32).toString('hex'),
      webhookSecret: { keyId: 'k1', nonce: 'bm9uY2U=', ciphertext: 'Y2lwaGVy', tag: 'dGFn' },
    });
  };

  t.test('records are appended in one batch and read back newest first, by integration and mode, filtered', async (t) => {
    const id = randomUUID();
    const at = (seconds: number) => new Date(Date.UTC(2026, 10, 27, 10, 0, seconds));
    await log.append([
      record(id, { requestId: 'a', receivedAt: at(1), queryParameters: ['we"ird\\,{x} y', ''] }),
      record(id, { requestId: 'b', receivedAt: at(2), status: 404, errorCode: 'NOT_FOUND', route: '/api/public/appointments/:appointmentId', errorBody: { error: 'Not found', code: 'NOT_FOUND' } }),
      record(id, { requestId: 'c', receivedAt: at(3), mode: 'test' }),
      record(randomUUID(), { requestId: 'd', receivedAt: at(4) }),
    ]);
    const all = await log.list({ integrationId: id, mode: 'live', limit: 10, after: null, status: null, route: null, since: null });
    t.same(all.map((r) => r.requestId), ['b', 'a']);
    t.match(all[0], { status: 404, errorCode: 'NOT_FOUND', errorBody: { code: 'NOT_FOUND' }, queryParameters: ['limit', 'apiKey'], receivedAt: at(2) });
    const errors = await log.list({ integrationId: id, mode: 'live', limit: 10, after: null, status: { min: 400, max: 499 }, route: null, since: null });
    t.same(errors.map((r) => r.requestId), ['b']);
    t.same(all[1]!.queryParameters, ['we"ird\\,{x} y', ''], 'any name, stored as sent');
    t.equal(all[1]!.errorBody, null, 'a success has no error body');
    t.equal(all[1]!.receivedAt.getTime(), at(1).getTime(), 'the time to the millisecond');
    const { rows: chunks } = await sql<{ mode: string; records: number }>`
      select mode, jsonb_array_length(records::jsonb) as records from request_log_chunks where integration_id = ${id} order by mode`.execute(handle.db);
    t.same(chunks, [{ mode: 'live', records: 2 }, { mode: 'test', records: 1 }], 'a chunk per integration and mode of the batch');
    const byRoute = await log.list({ integrationId: id, mode: 'live', limit: 10, after: null, status: null, route: '/api/public/products', since: null });
    t.same(byRoute.map((r) => r.requestId), ['a']);
    const since = await log.list({ integrationId: id, mode: 'live', limit: 10, after: null, status: null, route: null, since: at(2) });
    t.same(since.map((r) => r.requestId), ['b']);
    const next = await log.list({ integrationId: id, mode: 'live', limit: 10, after: { sortValue: all[0]!.receivedAt, id: all[0]!.id }, status: null, route: null, since: null });
    t.same(next.map((r) => r.requestId), ['a'], 'the page after a position');
    t.equal((await log.findByRequestId(id, 'live', 'b'))?.status, 404);
    t.equal(await log.findByRequestId(id, 'live', 'c'), null, 'another mode');
    t.equal((await log.findByRequestId(id, 'test', 'c'))?.mode, 'test');
  });

  t.test('a NUL or a lone surrogate in a record is stored as U+FFFD, and the rest of the batch with it', async (t) => {
    const id = randomUUID();
    await log.append([
      record(id, { requestId: 'odd', path: '/api/public/fleet/a\u0000b\ud800' }),
      record(id, { requestId: 'low', path: '/api/public/fleet/\udfff' }),
      record(id, { requestId: 'plain' }),
    ]);
    const stored = await log.findByRequestId(id, 'live', 'odd');
    t.equal(stored?.path, '/api/public/fleet/a\uFFFDb\uFFFD');
    t.equal((await log.findByRequestId(id, 'live', 'low'))?.path, '/api/public/fleet/\uFFFD', 'a lone low surrogate too');
    t.ok(await log.findByRequestId(id, 'live', 'plain'));
  });

  t.test("what separates a batch's rows and values is stored as sent: tabs, newlines, backslashes, quotes", async (t) => {
    const id = randomUUID();
    const path = '/api/public/fleet/a\tb\\n\r\\N';
    const queryParameters = ['a\tb', 'c\nd', '\\N', '"', '{}', ',', 'e\\f'];
    const errorBody = { error: 'Bad "input"\n\\ \t', code: 'VALIDATION_FAILED' };
    await log.append([
      record(id, { requestId: 'sep', path, route: '/api/public/fleet/:id', queryParameters, status: 400, errorCode: 'VALIDATION_FAILED', errorBody }),
      record(id, { requestId: 'after' }),
    ]);
    const stored = await log.findByRequestId(id, 'live', 'sep');
    t.equal(stored?.path, path);
    t.same(stored?.queryParameters, queryParameters);
    t.same(stored?.errorBody, errorBody);
    t.ok(await log.findByRequestId(id, 'live', 'after'), 'and the next record is a row of its own');
  });

  t.test('a link is consumed once; used, expired and revoked links say why', async (t) => {
    const shop = await integration();
    const now = new Date();
    await portal.createLink({ integrationId: shop.id, tokenHash: 'h-ok', expiresAt: new Date(now.getTime() + 60_000) });
    await portal.createLink({ integrationId: shop.id, tokenHash: 'h-old', expiresAt: new Date(now.getTime() - 1) });
    const [first, second] = await Promise.all([portal.consumeLink('h-ok', now), portal.consumeLink('h-ok', now)]);
    t.same([first, second].filter((r) => 'integrationId' in r), [{ integrationId: shop.id }], 'exactly one exchange wins');
    t.same(await portal.consumeLink('h-ok', now), { refused: 'used' });
    t.same(await portal.consumeLink('h-old', now), { refused: 'expired' });
    t.same(await portal.consumeLink('h-none', now), { refused: 'unknown' });

    const session = await portal.createSession({ integrationId: shop.id, sessionHash: 's-1', expiresAt: new Date(now.getTime() + 3_600_000) });
    t.match(await portal.findSession('s-1', now), { id: session.id, integrationId: shop.id });
    t.equal(await portal.findSession('s-1', new Date(now.getTime() + 7_200_000)), null, 'expired');
    await portal.recordAction({ integrationId: shop.id, sessionId: session.id, mode: 'test', action: 'webhook.test', detail: { delivered: true } });
    t.match(await portal.listActions(shop.id, 10), [{ mode: 'test', action: 'webhook.test', detail: { delivered: true }, at: Date }]);

    await portal.createLink({ integrationId: shop.id, tokenHash: 'h-late', expiresAt: new Date(now.getTime() + 60_000) });
    await repos.integrations.revoke(shop.id, now);
    t.equal(await portal.findSession('s-1', now), null, 'revoking ends the session');
    t.same(await portal.consumeLink('h-late', now), { refused: 'unknown' }, 'a revoked integration\'s link opens nothing');
  });

  t.test('a key is known by its last 4 characters, kept through a rotation', async (t) => {
    const garage = await newGarage(repos);
    const shop = await repos.integrations.create({
      id: randomUUID(),
      garageId: garage.id,
      name: 'Shop',
      sync: { appointments: false, catalog: false, stock: false },
      webhookUrl: null,
      apiKeyHash: randomBytes(32).toString('hex'),
      apiKeyEnding: 'ab12',
      webhookSecret: { keyId: 'k1', nonce: 'bm9uY2U=', ciphertext: 'Y2lwaGVy', tag: 'dGFn' },
    });
    t.same(await portal.keyEndings(shop.id), { live: 'ab12', test: null });
    await repos.integrations.rotateKey(shop.id, randomBytes(32).toString('hex'), new Date(), 0, 'cd34');
    t.same(await portal.keyEndings(shop.id), { live: 'cd34', test: null });
  });

  t.test('logout ends a session', async (t) => {
    const shop = await integration();
    const now = new Date();
    const session = await portal.createSession({ integrationId: shop.id, sessionHash: 's-2', expiresAt: new Date(now.getTime() + 3_600_000) });
    await portal.endSession(session.id, now);
    t.equal(await portal.findSession('s-2', now), null);
  });
});
