import t from 'tap';
import { DAY_MS, eraseEventData, makeEnforceRetention, makeEraseCustomerData, makeMeasureRetention, type RetentionStore } from './support.js';
import { testClock } from '../src/testing/index.js';

/** docs/operators/retention.md and docs/operators/personal-data.md, against plain in-memory stand-ins of their ports. */

const tableOf = (dates: Date[]) => {
  const calls: number[] = [];
  const store: RetentionStore = {
    async purgeBatch(_table, before, limit) {
      const old = dates.filter((d) => d <= before).sort((a, b) => a.getTime() - b.getTime()).slice(0, limit);
      for (const d of old) dates.splice(dates.indexOf(d), 1);
      calls.push(old.length);
      return old.length;
    },
    async oldestRowAt() {
      return dates.length === 0 ? null : new Date(Math.min(...dates.map((d) => d.getTime())));
    },
  };
  return { store, calls, dates };
};

t.test('retention deletes in batches, at most maxBatches a run, and stops at the first short batch', async (t) => {
  const clock = testClock('2026-12-15T00:00:00Z');
  const at = (days: number) => new Date(clock.now().getTime() - days * DAY_MS);
  const table = tableOf([...Array.from({ length: 23 }, () => at(40)), at(10), at(1)]);
  const policies = [{ table: 'events', keepMs: 30 * DAY_MS }];
  const enforce = makeEnforceRetention({ store: table.store, clock, policies, limits: { batchSize: 5, maxBatches: 3 } });
  t.same(await enforce(), { events: 15 });
  t.same(table.calls, [5, 5, 5], 'three full batches, then the run ends');
  t.same(await enforce(), { events: 8 });
  t.same(table.calls.slice(3), [5, 3], 'a short batch means nothing is left');
  t.equal(table.dates.length, 2, 'the rows within 30 days stay');
  t.same(await makeMeasureRetention({ store: table.store, clock, policies })(), [{ table: 'events', oldestRowAgeSeconds: 10 * 86_400, retentionSeconds: 30 * 86_400 }]);
});

t.test("an event's data loses the person's name, email, phone and free text, nothing else", async (t) => {
  t.same(
    eraseEventData({
      id: 'a1',
      status: 'cancelled',
      customer: { name: 'Jeanne', email: 'j@example.com', phone: null },
      vehicle: { plate: 'AB-123-CD' },
      notes: 'Squeaks',
      cancellationReason: 'Moved away',
      startsAt: '2026-12-01T09:00:00+01:00',
    }),
    {
      id: 'a1',
      status: 'cancelled',
      customer: { name: '[erased]', email: '[erased]', phone: null },
      vehicle: { plate: 'AB-123-CD' },
      notes: '[erased]',
      cancellationReason: '[erased]',
      startsAt: '2026-12-01T09:00:00+01:00',
    },
  );
  t.same(eraseEventData({ id: 'q1', customerName: 'Jeanne', signerName: 'J', comment: null, totalCents: 100 }), {
    id: 'q1',
    customerName: '[erased]',
    signerName: '[erased]',
    comment: null,
    totalCents: 100,
  });
});

t.test('an erasure of an unknown garage is NOT_FOUND and touches nothing', async (t) => {
  let opened = false;
  const erase = makeEraseCustomerData({
    garages: { findBySlug: async () => null },
    uow: { run: async () => ((opened = true), Promise.reject(new Error('no transaction expected'))) },
    clock: testClock('2026-12-15T00:00:00Z'),
  });
  await t.rejects(erase({ garageSlug: 'nowhere', email: 'j@example.com' }), { code: 'NOT_FOUND' });
  t.notOk(opened);
});
