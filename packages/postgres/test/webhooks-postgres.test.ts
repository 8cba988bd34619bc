import { DELIVERY_LEASE_MS, type ClaimedDelivery } from '@garage/domain';
import t from 'tap';
import { connectPostgres } from '../src/db.js';
import { createTestDatabase, insertGarage, insertIntegration } from '@garage/postgres/testing';
import { makeDeliveryQueue, makeOutbox } from '../src/webhooks/index.js';

const later = (ms = 0) => new Date(Date.now() + 1_000 + ms);

t.test('on real Postgres', async (t) => {
  const database = await createTestDatabase('pgwebhooks');
  t.teardown(database.drop);
  const { db } = database.handle;
  const counts = async () => ({
    events: Number((await db.selectFrom('webhook_events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    deliveries: Number(
      (await db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
    ),
  });

  t.test('the outbox writes nothing when the surrounding transaction rolls back', async (t) => {
    const garageId = await insertGarage(db);
    await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook', syncAppointments: true });
    const before = await counts();
    await t.rejects(
      db.transaction().execute(async (trx) => {
        await makeOutbox(trx).enqueue({ garageId, type: 'appointment.created', data: { id: 'a1' } });
        throw new Error('the booking failed after the event was written');
      }),
      /booking failed/,
    );
    t.same(await counts(), before);
  });

  t.test('an event is invisible to workers until the transaction that wrote it commits', async (t) => {
    const garageId = await insertGarage(db);
    const integration = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
    const queue = makeDeliveryQueue(db);
    const trx = await db.startTransaction().execute();
    await makeOutbox(trx).enqueue({ garageId, type: 'lead.created', data: { id: 'l1' } });
    t.equal((await queue.claimDue({ now: later(), limit: 100, leaseMs: 1_000 })).length, 0, 'not before commit');
    await trx.commit().execute();
    const claimed = await queue.claimDue({ now: later(), limit: 100, leaseMs: 1_000 });
    t.same(claimed.map((d) => d.integrationId), [integration.id], 'after commit');
  });

  t.test('queues on separate connections claiming concurrently never get the same delivery', async (t) => {
    await db.deleteFrom('webhook_deliveries').execute();
    const garageId = await insertGarage(db);
    for (let i = 0; i < 4; i++) await insertIntegration(db, garageId, { webhookUrl: `http://127.0.0.1:9/${i}` });
    const outbox = makeOutbox(db);
    for (let i = 0; i < 60; i++) await outbox.enqueue({ garageId, type: 'lead.created', data: { i } });

    const workers = Array.from({ length: 4 }, () => connectPostgres({ connectionString: database.url, max: 3 }));
    t.teardown(() => Promise.all(workers.map((w) => w.close())));
    const queues = workers.map((w) => makeDeliveryQueue(w.db));
    const now = later();
    const seen: ClaimedDelivery[] = [];
    for (;;) {
      // Every queue claims at once, several times over, with batches that do not divide the backlog evenly.
      const rounds = await Promise.all(queues.flatMap((q) => [q, q].map((qq) => qq.claimDue({ now, limit: 7, leaseMs: 60_000 }))));
      const batch = rounds.flat();
      if (batch.length === 0) break;
      seen.push(...batch);
    }
    t.equal(seen.length, 240, 'every delivery was claimed');
    t.equal(new Set(seen.map((d) => d.id)).size, 240, 'and none twice');
  });

  t.test("a worker that dies holding a lease loses nothing: another claims the delivery when the lease ends", async (t) => {
    await db.deleteFrom('webhook_deliveries').execute();
    const garageId = await insertGarage(db);
    await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
    await makeOutbox(db).enqueue({ garageId, type: 'quote.accepted', data: { id: 'q1' } });

    const crashed = connectPostgres({ connectionString: database.url, max: 1 });
    const t0 = later();
    const [taken] = await makeDeliveryQueue(crashed.db).claimDue({ now: t0, limit: 10, leaseMs: DELIVERY_LEASE_MS });
    t.ok(taken);
    await crashed.close();

    const survivor = makeDeliveryQueue(db);
    t.equal((await survivor.claimDue({ now: new Date(t0.getTime() + DELIVERY_LEASE_MS - 1), limit: 10, leaseMs: 1_000 })).length, 0);
    const [recovered] = await survivor.claimDue({ now: new Date(t0.getTime() + DELIVERY_LEASE_MS), limit: 10, leaseMs: 1_000 });
    t.equal(recovered?.id, taken?.id);
    t.equal(recovered?.event.id, taken?.event.id, 'the same webhook-id');
    t.equal(recovered?.attempts, 0, 'the lost attempt never reached the receiver as far as we know');
  });

  t.test('a claim does not wait for, nor skip over, a transaction that holds the integration row', async (t) => {
    await db.deleteFrom('webhook_deliveries').execute();
    const garageId = await insertGarage(db);
    const integration = await insertIntegration(db, garageId, { webhookUrl: 'http://127.0.0.1:9/hook' });
    await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: {} });
    const trx = await db.startTransaction().execute();
    t.teardown(() => trx.rollback().execute().catch(() => {}));
    await trx.updateTable('integrations').set({ last_used_at: new Date() }).where('id', '=', integration.id).execute();
    const claimed = await makeDeliveryQueue(db).claimDue({ now: later(), limit: 10, leaseMs: 1_000 });
    t.equal(claimed.length, 1);
  });
});
