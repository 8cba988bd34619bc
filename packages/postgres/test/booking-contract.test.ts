import { bookingContract, idempotencyStoreContract } from '@garage/domain/testing';
import { sql } from 'kysely';
import t from 'tap';
import { makeIdempotencyStore } from '../src/idempotency-store.js';
import { makeRepositories, makeUnitOfWork } from '../src/repositories/index.js';
import { backends, insertGarage, insertIntegration } from '@garage/postgres/testing';

// The suites the in-memory fakes pass too (packages/domain/test/booking-contract.test.ts and
// idempotency-store-contract.test.ts), here against the real tables on both backends.
for (const backend of backends) {
  t.test(backend.name, async (t) => {
    const { handle, drop } = await backend.open();
    t.teardown(drop);
    const { db } = handle;

    const lockWaiters = async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
      return rows[0]?.n ?? 0;
    };

    const insertProducts = async (garageId: string, count: number) => {
      const rows = await db
        .insertInto('products')
        .values(
          Array.from({ length: count }, (_, i) => ({
            garage_id: garageId,
            sku: `SKU-${i}`,
            name: `Product ${i}`,
            price_cents: 1000,
            currency: 'EUR',
            vat_rate: 20,
            unit: 'piece',
          })),
        )
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    };

    t.test('booking contract', async (t) => {
      // Every case gets garages and integrations of its own, so none sees another's appointments.
      const setup = async () => {
        const garageId = await insertGarage(db);
        const otherGarageId = await insertGarage(db);
        return {
          uow: makeUnitOfWork(db),
          appointments: makeRepositories(db).appointments,
          bookings: makeRepositories(db).bookings,
          availability: makeRepositories(db).availability,
          garageId,
          integrationId: (await insertIntegration(db, garageId, { webhookUrl: null })).id,
          otherIntegrationId: (await insertIntegration(db, garageId, { webhookUrl: null })).id,
          otherGarageId,
          otherGarageIntegrationId: (await insertIntegration(db, otherGarageId, { webhookUrl: null })).id,
          productIds: await insertProducts(garageId, 2),
          foreignProductId: (await insertProducts(otherGarageId, 1))[0] as string,
          // PGlite runs one transaction at a time: nothing can wait for a lock there.
          ...(backend.name === 'postgres' ? { lockWaiters } : {}),
        };
      };
      for (const c of bookingContract(setup)) t.test(c.name, c.run);
    });

    t.test('idempotency store contract', async (t) => {
      const makeStore = async () => {
        await sql`truncate idempotency_keys`.execute(db);
        return makeIdempotencyStore(db);
      };
      for (const c of idempotencyStoreContract(makeStore)) t.test(c.name, c.run);
    });
  });
}
