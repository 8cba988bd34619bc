import { randomUUID } from 'node:crypto';
import { uuidV7Time, type RequestLogQuery, type RequestRecord } from '@garage/domain';
import { sql } from 'kysely';
import t from 'tap';
import { v7 } from 'uuid';
import { makeRequestLog } from '../src/index.js';
import { CHUNK_SPAN_MS, encodeRequestRecord } from '../src/request-log/request-chunks.js';
import { requestRecord as record } from './fixtures/request-records.js';
import { makeRetentionStore, retainedTables } from '../src/retention/index.js';
import { runContract, walk } from '../src/testing/index.js';

/** The request log as chunks (migrations 0022, 0023): pages across chunks that overlap in time, lookups by a request id. */

const query = (integrationId: string, extra: Partial<RequestLogQuery> = {}): RequestLogQuery => ({
  integrationId,
  mode: 'live',
  limit: 10,
  after: null,
  status: null,
  route: null,
  since: null,
  ...extra,
});

/** Newest first, the greater id first within a millisecond: the order every page must follow. */
const inPageOrder = (records: RequestRecord[]): boolean =>
  records.every((r, i) => {
    const next = records[i + 1];
    if (next === undefined) return true;
    const [a, b] = [r.receivedAt.getTime(), next.receivedAt.getTime()];
    return a > b || (a === b && r.id > next.id);
  });

t.test('a UUIDv7 request id is found by its time when it is the time of its record; any other id is indexed', async (t) => {
  const at = new Date('2026-11-28T10:00:00.000Z');
  const made = v7({ msecs: at.getTime() });
  t.equal(uuidV7Time(made), at.getTime());
  t.equal(uuidV7Time(randomUUID()), null, 'a UUIDv4 carries no time');
  t.equal(uuidV7Time(made.toUpperCase()), null, 'only the canonical, lower-case form');
  t.equal(encodeRequestRecord(record(randomUUID(), { requestId: made, receivedAt: new Date(at.getTime() + 2) })).indexedId, null);
  t.equal(encodeRequestRecord(record(randomUUID(), { requestId: made, receivedAt: new Date(at.getTime() + 60_000) })).indexedId, made, 'a v7 sent with another time');
  t.equal(encodeRequestRecord(record(randomUUID(), { requestId: 'order-42' })).indexedId, 'order-42');
  t.notOk(encodeRequestRecord(record(randomUUID(), { path: 'a\nb' })).row.includes('\n'), 'a row never holds a raw line break');
});

runContract((t, { handle }) => {
  const log = makeRequestLog(handle.db);

  t.test('pages walk chunks that overlap in time, many records to a millisecond, in order, each record once', async (t) => {
    const id = randomUUID();
    const start = Date.UTC(2026, 10, 28, 9, 0, 0);
    // 600 records over 45 s (five spans of time), three to a millisecond, one in 40 a 404, written in batches of 50
    // taken in a shuffled order: each batch's chunks overlap the others'.
    const records = Array.from({ length: 600 }, (_, i) =>
      record(id, { requestId: `r-${i}`, receivedAt: new Date(start + Math.floor(i / 3) * 225), status: i % 40 === 7 ? 404 : 200 }),
    );
    const shuffled = records.map((r, i) => ({ r, key: (i * 7919) % 600 })).sort((a, b) => a.key - b.key).map(({ r }) => r);
    for (let i = 0; i < shuffled.length; i += 50) await log.append(shuffled.slice(i, i + 50));
    const { rows } = await sql<{ chunks: number }>`select count(*)::int as chunks from request_log_chunks where integration_id = ${id}`.execute(handle.db);
    t.ok(rows[0]!.chunks > 12, `records in many chunks (${rows[0]!.chunks})`);

    const positionOf = (r: RequestRecord) => ({ sortValue: r.receivedAt, id: r.id });
    for (const limit of [1, 7, 100]) {
      const seen = await walk((after, l) => log.list(query(id, { after, limit: l })), positionOf, { limit });
      t.equal(seen.length, 600, `limit ${limit}: every record`);
      t.equal(new Set(seen.map((r) => r.id)).size, 600, `limit ${limit}: each once`);
      t.ok(inPageOrder(seen), `limit ${limit}: newest first`);
    }
    const errors = await walk((after, l) => log.list(query(id, { after, limit: l, status: { min: 404, max: 404 } })), positionOf, { limit: 4 });
    t.same(
      errors.map((r) => r.requestId),
      records.filter((r) => r.status === 404).map((r) => r.requestId).reverse(),
      'a filter that skips whole chunks',
    );
    const since = new Date(start + 30_000);
    const recent = await log.list(query(id, { since, limit: 1000 }));
    t.equal(recent.length, records.filter((r) => r.receivedAt >= since).length, 'since');
    t.ok(recent.every((r) => r.receivedAt >= since));
  });

  t.test('a request id is found whether the API made it or the connector sent it, the newest of its records', async (t) => {
    const id = randomUUID();
    const now = Date.now();
    const made = v7({ msecs: now });
    const sentV7 = v7({ msecs: now - 3_600_000 });
    await log.append([
      record(id, { requestId: made, receivedAt: new Date(now + 1), status: 201 }),
      record(id, { requestId: sentV7, receivedAt: new Date(now) }),
      record(id, { requestId: 'retry-1', receivedAt: new Date(now), status: 503 }),
      record(id, { requestId: 'retry-1', receivedAt: new Date(now + CHUNK_SPAN_MS * 3), status: 200 }),
    ]);
    t.equal((await log.findByRequestId(id, 'live', made))?.status, 201, 'found by its time');
    t.equal((await log.findByRequestId(id, 'live', sentV7))?.requestId, sentV7, 'a v7 of another time, by the index');
    t.equal((await log.findByRequestId(id, 'live', 'retry-1'))?.status, 200, 'the newest of two');
    t.equal(await log.findByRequestId(id, 'test', made), null, 'not in another mode');
    t.equal(await log.findByRequestId(randomUUID(), 'live', made), null, "not another integration's");
    t.equal(await log.findByRequestId(id, 'live', v7({ msecs: now })), null, 'an unknown id of the same time');
  });

  t.test('a filtered page reads the chunks whose statuses and routes may match, and those that do not say, whole', async (t) => {
    const id = randomUUID();
    const at = Date.UTC(2026, 10, 28, 11, 0, 0);
    await log.append(Array.from({ length: 50 }, (_, i) => record(id, { requestId: `ok-${i}`, receivedAt: new Date(at + i) })));
    await log.append([record(id, { requestId: 'failed', receivedAt: new Date(at + 60), status: 503, route: '/api/public/stock' })]);
    const { rows } = await sql<{ statuses: number[]; routes: string[] }>`
      select statuses, routes from request_log_chunks where integration_id = ${id} order by id`.execute(handle.db);
    t.same(rows, [
      { statuses: [200], routes: ['/api/public/products'] },
      { statuses: [503], routes: ['/api/public/stock'] },
    ]);
    // Records that cannot be parsed: a page that read this chunk would fail.
    await sql`update request_log_chunks set records = 'not json' where integration_id = ${id} and statuses = '{200}'`.execute(handle.db);
    const failures = await log.list(query(id, { status: { min: 500, max: 599 } }));
    t.same(failures.map((r) => r.requestId), ['failed'], 'a 5xx page passes over the chunk of successes');
    t.same(await log.list(query(id, { route: '/api/public/appointments' })), [], 'so does a page of a route it does not hold');
    t.same((await log.list(query(id, { route: '/api/public/stock' }))).map((r) => r.requestId), ['failed']);
    await t.rejects(log.list(query(id)), 'a page without filters reads it');
    await sql`update request_log_chunks set statuses = null, routes = null where integration_id = ${id}`.execute(handle.db);
    await t.rejects(log.list(query(id, { status: { min: 500, max: 599 } })), 'a chunk that does not say what it holds is read');
  });

  t.test('a chunk goes when its newest record passes retention: its oldest may outlive it by less than the span', async (t) => {
    const id = randomUUID();
    const retention = makeRetentionStore(handle.db, retainedTables({ webhookEventDays: 30, webhookDeliveryDays: 14, sandboxDays: 90, requestLogDays: 7 }));
    const span = Math.floor(Date.UTC(2026, 10, 20, 9) / CHUNK_SPAN_MS) * CHUNK_SPAN_MS;
    const cutoff = new Date(span + CHUNK_SPAN_MS / 2);
    await log.append([
      record(id, { requestId: 'gone', receivedAt: new Date(span - 1) }),
      record(id, { requestId: 'before-cutoff', receivedAt: new Date(cutoff.getTime() - 3000) }),
      record(id, { requestId: 'after-cutoff', receivedAt: new Date(cutoff.getTime() + 3000) }),
    ]);
    await retention.purgeBatch('request_log_chunks', cutoff, 1000);
    const kept = await log.list(query(id, { limit: 10 }));
    t.same(kept.map((r) => r.requestId), ['after-cutoff', 'before-cutoff'], 'the chunk of both stays whole; the older one goes');
  });

  t.test("records of the release before chunks are read with the chunks', in one order", async (t) => {
    const id = randomUUID();
    const at = (seconds: number) => new Date(Date.UTC(2026, 10, 28, 8, 0, seconds));
    await log.append([record(id, { requestId: 'new-1', receivedAt: at(1) }), record(id, { requestId: 'new-3', receivedAt: at(3), status: 404 })]);
    for (const [requestId, seconds, status] of [['old-0', 0, 200], ['old-2', 2, 404]] as const) {
      await sql`insert into request_log (integration_id, mode, request_id, created_at, method, route, path, query_parameters, status, error_code, api_version, duration_ms, error_body)
                values (${id}, 'live', ${requestId}, ${at(seconds)}, 'GET', '/api/public/products', '/api/public/products', '{}', ${status}, null, '2026-11-21', 3, null)`.execute(handle.db);
    }
    const all = await walk((after, limit) => log.list(query(id, { after, limit })), (r) => ({ sortValue: r.receivedAt, id: r.id }), { limit: 1 });
    t.same(all.map((r) => r.requestId), ['new-3', 'old-2', 'new-1', 'old-0']);
    const failed = await log.list(query(id, { status: { min: 400, max: 499 } }));
    t.same(failed.map((r) => r.requestId), ['new-3', 'old-2'], 'a status filter means the same in both');
    t.equal((await log.findByRequestId(id, 'live', 'old-2'))?.receivedAt.getTime(), at(2).getTime());
  });
});
