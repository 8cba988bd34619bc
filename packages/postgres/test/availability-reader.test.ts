import { randomUUID } from 'node:crypto';
import t from 'tap';
import { makeRepositories, makeUnitOfWork } from '../src/repositories/index.js';
import { backends, insertGarage } from '@garage/postgres/testing';

// What the booking contract does not cover of `findCalendars`: the garage as `findById` reads it and the closures of
// the dates asked for, through the function garage_calendar (src/sql-rules/booking-days.ts), on both backends.
for (const backend of backends) {
  t.test(backend.name, async (t) => {
    const { handle, drop } = await backend.open();
    t.teardown(drop);
    const repos = makeRepositories(handle.db);
    const garageId = await insertGarage(handle.db);
    const other = await insertGarage(handle.db);
    for (const [from, to] of [['2030-01-01', '2030-01-02'], ['2030-01-05', '2030-01-05'], ['2030-01-09', '2030-01-12'], ['2030-01-20', '2030-01-20']]) {
      await repos.garages.addClosure({ garageId, from: from as string, to: to as string, reason: `${from}` });
    }
    await repos.garages.addClosure({ garageId: other, from: '2030-01-06', to: '2030-01-06', reason: null });
    await makeUnitOfWork(handle.db).run((tx) => tx.bookingLocks.acquire({ garageId, localDate: '2030-01-07' }));

    const dates = { from: '2030-01-02', to: '2030-01-10' };
    const [calendar, malformed, bare, unknown, again] = await repos.availability.findCalendars([
      { garageId, dates },
      { garageId: 'not-a-uuid', dates },
      { garageId, dates: null },
      { garageId: randomUUID(), dates },
      { garageId, dates: { from: '2030-01-11', to: '2030-01-11' } },
    ]);
    t.same(calendar?.garage, await repos.garages.findById(garageId), 'the garage, as findById reads it');
    t.ok(calendar?.garage.createdAt instanceof Date);
    t.same(calendar?.closures, await repos.garages.listClosures(garageId, '2030-01-02', '2030-01-10'), 'the closures overlapping the dates, as listClosures reads them');
    t.same(calendar?.closures.map((c) => [c.from, c.to]), [['2030-01-01', '2030-01-02'], ['2030-01-05', '2030-01-05'], ['2030-01-09', '2030-01-12']]);
    t.same([...(calendar?.versions ?? [])], [['2030-01-07', 1]]);
    t.same([bare?.garage, bare?.closures, bare?.versions.size], [calendar?.garage, [], 0], 'without dates: the garage alone');
    t.same([malformed, unknown], [null, null]);
    t.same([again?.closures.map((c) => c.from), again?.versions.size], [['2030-01-09'], 0], 'each query its own dates, in the order asked');
    t.same(await repos.availability.findCalendars([{ garageId: 'nope', dates: null }]), [null]);
    t.same(await repos.availability.readPlaces('not-a-uuid', '2030-01-01', '2030-01-02', { from: new Date(0), to: new Date() }), { versions: new Map(), places: [] });
  });
}
