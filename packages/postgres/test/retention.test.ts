import { DAY_MS, makeEnforceRetention, makeMeasureRetention, type RetentionStore } from '@garage/domain';
import { testClock } from '@garage/domain/testing';
import { backends, insertGarage, insertIntegration } from '@garage/postgres/testing';
import { sql } from 'kysely';
import t from 'tap';
import { makeRequestLog } from '../src/request-log/request-log.js';
import { requestRecord } from './fixtures/request-records.js';
import { makeRetentionStore, retainedTables, retentionPoliciesOf } from '../src/retention/index.js';

/** docs/operators/retention.md: old rows go, recent rows stay, in batches, on every database the adapter runs on. */
const NOW = new Date('2026-12-15T12:00:00Z');
const clock = testClock(NOW.toISOString());
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS);
const settings = { webhookEventDays: 30, webhookDeliveryDays: 14, sandboxDays: 90, requestLogDays: 7 };

for (const backend of backends) {
  t.test(`on ${backend.name}`, async (t) => {
    const database = await backend.open();
    t.teardown(database.drop);
    const { db } = database.handle;
    const garageId = await insertGarage(db);
    const integration = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });

    /** `count` events of `age` days, each with a delivery and an attempt of the same age. */
    const seed = async (age: number, count: number) => {
      const at = daysAgo(age);
      for (let i = 0; i < count; i += 1) {
        const event = await db.insertInto('webhook_events').values({ garage_id: garageId, type: 'lead.created', payload: '{}', created_at: at }).returning('id').executeTakeFirstOrThrow();
        const delivery = await db
          .insertInto('webhook_deliveries')
          .values({ event_id: event.id, integration_id: integration.id, url: 'http://127.0.0.1:9/hook', status: 'succeeded', created_at: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db.insertInto('webhook_attempts').values({ delivery_id: delivery.id, attempted_at: at, status_code: 204, duration_ms: 3 }).execute();
      }
    };
    await seed(45, 12);
    await seed(20, 9);
    await seed(1, 4);
    for (const [key, expiresAt] of [['expired', daysAgo(0.5)], ['live', new Date(NOW.getTime() + 3_600_000)]] as const) {
      await db
        .insertInto('idempotency_keys')
        .values({ scope: 'test', key, request_hash: 'h', state: 'completed', response_status: 201, response_body: '{}', expires_at: expiresAt, created_at: daysAgo(1) })
        .execute();
    }
    const ages = [['old-1', 10], ['old-2', 10], ['old-3', 8], ['recent-1', 1], ['recent-2', 0.5]] as const;
    // Chunks of records by age: the two of 10 days share one.
    await makeRequestLog(db).append(
      ages.map(([requestId, age]) => requestRecord(integration.id, { requestId, receivedAt: daysAgo(age) })),
    );
    // Rows of the release before chunks, until retention has emptied its table.
    for (const [requestId, age] of ages) {
      await sql`insert into request_log (integration_id, mode, request_id, created_at, method, route, path, query_parameters, status, error_code, api_version, duration_ms, error_body)
                values (${integration.id}, 'live', ${requestId}, ${daysAgo(age)}, 'GET', '/api/public/products', '/api/public/products', '{}', 200, null, '2026-11-21', 3, null)`.execute(db);
    }
    const count = async (table: 'webhook_events' | 'webhook_deliveries' | 'webhook_attempts' | 'idempotency_keys' | 'request_log' | 'request_log_chunks') =>
      Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);

    const tables = retainedTables(settings);
    const store = makeRetentionStore(db, tables);
    const batches: { table: string; deleted: number }[] = [];
    const counting: RetentionStore = {
      purgeBatch: async (table, before, limit) => {
        const deleted = await store.purgeBatch(table, before, limit);
        batches.push({ table, deleted });
        return deleted;
      },
      oldestRowAt: (table) => store.oldestRowAt(table),
    };
    const policies = retentionPoliciesOf(tables, settings);
    const measure = makeMeasureRetention({ store, clock, policies });

    t.test('the metric shows each table\'s oldest row against its retention', async (t) => {
      t.same(await measure(), [
        { table: 'webhook_attempts', oldestRowAgeSeconds: 45 * 86_400, retentionSeconds: 14 * 86_400 },
        { table: 'webhook_deliveries', oldestRowAgeSeconds: 45 * 86_400, retentionSeconds: 14 * 86_400 },
        { table: 'webhook_events', oldestRowAgeSeconds: 45 * 86_400, retentionSeconds: 30 * 86_400 },
        { table: 'idempotency_keys', oldestRowAgeSeconds: 43_200, retentionSeconds: 0 },
        { table: 'request_log_chunks', oldestRowAgeSeconds: 10 * 86_400, retentionSeconds: 7 * 86_400 },
        { table: 'request_log', oldestRowAgeSeconds: 10 * 86_400, retentionSeconds: 7 * 86_400 },
        { table: 'sandbox', oldestRowAgeSeconds: 0, retentionSeconds: 90 * 86_400 },
      ]);
    });

    t.test('a run deletes at most maxBatches batches of batchSize rows per table; the next run goes on', async (t) => {
      const enforce = makeEnforceRetention({ store: counting, clock, policies, limits: { batchSize: 5, maxBatches: 2 } });
      t.same(await enforce(), { webhook_attempts: 10, webhook_deliveries: 10, webhook_events: 10, idempotency_keys: 1, request_log_chunks: 2, request_log: 3, sandbox: 0 });
      t.ok(batches.every((b) => b.deleted <= 5), 'no batch larger than its limit');
      t.equal(await count('webhook_events'), 25 - 10, 'two batches of events, the rest left for the next run');
    });

    t.test('old rows go, recent rows stay', async (t) => {
      const enforce = makeEnforceRetention({ store: counting, clock, policies, limits: { batchSize: 5, maxBatches: 100 } });
      await enforce();
      t.equal(await count('webhook_events'), 9 + 4, 'events of 20 and 1 days stay: the feed keeps 30 days');
      t.equal(await count('webhook_deliveries'), 4, 'deliveries and attempts keep 14 days');
      t.equal(await count('webhook_attempts'), 4);
      t.same((await db.selectFrom('idempotency_keys').select('key').execute()).map((r) => r.key), ['live'], 'expired keys go, live ones stay');
      t.same((await db.selectFrom('request_log').select('request_id').orderBy('request_id').execute()).map((r) => r.request_id), ['recent-1', 'recent-2'], 'request records keep 7 days');
      t.equal(await count('request_log_chunks'), 2, 'so do chunks of them');
      const kept = await makeRequestLog(db).list({ integrationId: integration.id, mode: 'live', limit: 10, after: null, status: null, route: null, since: null });
      t.same(kept.map((r) => r.requestId), ['recent-2', 'recent-2', 'recent-1', 'recent-1'], 'read from both tables');
      t.same(await enforce(), { webhook_attempts: 0, webhook_deliveries: 0, webhook_events: 0, idempotency_keys: 0, request_log_chunks: 0, request_log: 0, sandbox: 0 }, 'nothing left to do');
      const ages = await measure();
      t.ok(ages.every((a) => a.oldestRowAgeSeconds <= a.retentionSeconds), 'every table within its retention');
    });

    t.test('an empty table has age 0', async (t) => {
      await db.deleteFrom('idempotency_keys').execute();
      t.match(await measure(), [{}, {}, {}, { table: 'idempotency_keys', oldestRowAgeSeconds: 0 }, {}, {}, {}]);
    });
  });
}

t.test('two runs at once on Postgres delete each old row once and leave the recent ones', async (t) => {
  const database = await backends[0]!.open();
  t.teardown(database.drop);
  const { db } = database.handle;
  const garageId = await insertGarage(db);
  await sql`insert into webhook_events (garage_id, type, payload, created_at)
            select ${garageId}, 'lead.created', '{}', ${daysAgo(40)}::timestamptz - n * interval '1 second' from generate_series(1, 300) n`.execute(db);
  await sql`insert into webhook_events (garage_id, type, payload, created_at)
            select ${garageId}, 'lead.created', '{}', ${daysAgo(2)} from generate_series(1, 50)`.execute(db);
  const tables = retainedTables(settings);
  const enforce = makeEnforceRetention({ store: makeRetentionStore(db, tables), clock, policies: retentionPoliciesOf(tables, settings), limits: { batchSize: 20, maxBatches: 100 } });
  const [a, b] = await Promise.all([enforce(), enforce()]);
  t.equal((a.webhook_events ?? 0) + (b.webhook_events ?? 0), 300, 'every old event deleted once between them');
  t.equal(Number((await sql<{ n: string }>`select count(*) as n from webhook_events`.execute(db)).rows[0]!.n), 50);
});
