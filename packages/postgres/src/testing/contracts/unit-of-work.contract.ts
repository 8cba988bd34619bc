import { DomainError } from '@garage/domain';
import { sql } from 'kysely';
import { newGarage, productRow } from '@garage/domain/testing';
import type { Contract } from './harness.js';

export const unitOfWorkContract: Contract = (t, { repos, uow, handle }) => {
  t.test('work that succeeds commits every write', async (t) => {
    const garage = await newGarage(repos);
    const ids = await uow.run(async (tx) => {
      const saved = await tx.products.upsertMany(garage.id, [productRow(1)], 'EUR');
      await tx.stock.setQuantities(garage.id, [{ sku: 'SKU-001', quantity: 3 }]);
      return saved;
    });
    const [item] = await repos.stock.list({ garageId: garage.id, limit: 10, after: null, updatedSince: null, sku: null });
    t.match(item, { productId: ids['SKU-001'], quantity: 3 });
  });

  t.test('work that throws rolls back every write and rethrows the error unchanged', async (t) => {
    const garage = await newGarage(repos);
    const failure = new DomainError('VALIDATION_FAILED', 'stop here');
    await t.rejects(
      uow.run(async (tx) => {
        await tx.products.upsertMany(garage.id, [productRow(1)], 'EUR');
        await tx.garages.addClosure({ garageId: garage.id, from: '2026-12-24', to: '2026-12-24', reason: null });
        throw failure;
      }),
      failure,
    );
    const query = { garageId: garage.id, limit: 10, after: null, updatedSince: null, sku: null };
    t.same(await repos.products.list({ ...query, includeInactive: true }), []);
    t.same(await repos.stock.list(query), []);
    t.same(await repos.garages.listClosures(garage.id, '2026-01-01', '2027-01-01'), []);
  });

  t.test('a database error inside the work surfaces as its domain error, and rolls back', async (t) => {
    const garage = await newGarage(repos);
    await t.rejects(
      uow.run(async (tx) => {
        await tx.garages.addClosure({ garageId: garage.id, from: '2026-12-24', to: '2026-12-24', reason: null });
        await tx.garages.create({ slug: garage.slug, name: 'Again', currency: 'EUR', booking: garage.booking });
      }),
      { code: 'DUPLICATE' },
    );
    t.same(await repos.garages.listClosures(garage.id, '2026-01-01', '2027-01-01'), []);
  });

  t.test('an event enqueued by the work is committed with its writes', async (t) => {
    const garage = await newGarage(repos);
    await uow.run(async (tx) => {
      await tx.garages.addClosure({ garageId: garage.id, from: '2026-12-24', to: '2026-12-24', reason: null });
      await tx.outbox.enqueue({ garageId: garage.id, type: 'lead.created', data: { id: 'l1' } });
    });
    t.equal((await repos.garages.listClosures(garage.id, '2026-01-01', '2027-01-01')).length, 1);
    const { rows } = await sql<{ payload: unknown }>`select payload from webhook_events where garage_id = ${garage.id}`.execute(handle.db);
    t.same(rows, [{ payload: { id: 'l1' } }]);
  });

  t.test('an event that cannot be written fails the work with its domain error, and nothing of it is kept', async (t) => {
    const garage = await newGarage(repos);
    await t.rejects(
      uow.run(async (tx) => {
        await tx.garages.addClosure({ garageId: garage.id, from: '2026-12-24', to: '2026-12-24', reason: null });
        await tx.outbox.enqueue({ garageId: 'not a garage id', type: 'lead.created', data: {} });
      }),
      { code: 'VALIDATION_FAILED' },
    );
    t.same(await repos.garages.listClosures(garage.id, '2026-01-01', '2027-01-01'), []);
    const after = await uow.run((tx) => tx.garages.findById(garage.id));
    t.equal(after?.id, garage.id, 'the connection serves the next unit of work');
  });
};
