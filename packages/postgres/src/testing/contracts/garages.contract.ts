import { randomUUID } from 'node:crypto';
import { newGarage } from '@garage/domain/testing';
import type { Contract } from './harness.js';

export const garageRepositoryContract: Contract<'repos'> = (t, { repos }) => {
  t.test('a created garage is found by slug and by id, booking settings included', async (t) => {
    const garage = await newGarage(repos, 'CHF');
    t.match(garage, { id: String, currency: 'CHF', createdAt: Date });
    t.equal(garage.booking.weeklyHours.mon[0]?.start, '08:00');
    t.same(await repos.garages.findBySlug(garage.slug), garage);
    t.same(await repos.garages.findById(garage.id), garage);
  });

  t.test('an unknown slug or id, or an id that is not a UUID, is not found', async (t) => {
    t.equal(await repos.garages.findBySlug('no-such-garage'), null);
    t.equal(await repos.garages.findById(randomUUID()), null);
    t.equal(await repos.garages.findById('not-a-uuid'), null);
  });

  t.test('a taken slug is DUPLICATE', async (t) => {
    const garage = await newGarage(repos);
    await t.rejects(
      repos.garages.create({ slug: garage.slug, name: 'Again', currency: 'EUR', booking: garage.booking }),
      { code: 'DUPLICATE', message: 'A garage with this slug already exists' },
    );
  });

  t.test('closures overlapping an inclusive date range are listed, dates as YYYY-MM-DD strings', async (t) => {
    const garage = await newGarage(repos);
    const add = (from: string, to: string) => repos.garages.addClosure({ garageId: garage.id, from, to, reason: null });
    const christmas = await add('2026-12-24', '2026-12-26');
    const newYear = await add('2027-01-01', '2027-01-01');
    await add('2026-11-01', '2026-11-02');
    await add('2027-01-02', '2027-01-05');
    t.same(christmas, { id: christmas.id, garageId: garage.id, from: '2026-12-24', to: '2026-12-26', reason: null });
    t.same(await repos.garages.listClosures(garage.id, '2026-12-26', '2027-01-01'), [christmas, newYear]);
    t.same(await repos.garages.listClosures(garage.id, '2026-12-27', '2026-12-31'), []);
    t.same(await repos.garages.listClosures('not-a-uuid', '2026-01-01', '2027-12-31'), []);
  });

  t.test('a garage is read with its closures overlapping a date range, in the same shapes as apart', async (t) => {
    const garage = await newGarage(repos);
    const other = await newGarage(repos);
    const add = (garageId: string, from: string, to: string, reason: string | null = null) =>
      repos.garages.addClosure({ garageId, from, to, reason });
    const christmas = await add(garage.id, '2026-12-24', '2026-12-26', 'Christmas');
    const newYear = await add(garage.id, '2027-01-01', '2027-01-01');
    await add(garage.id, '2027-01-02', '2027-01-05');
    await add(other.id, '2026-12-31', '2026-12-31');
    // Without the time of the read, which is checked apart.
    const read = async (id: string, from: string, to: string) => {
      const found = await repos.garages.findWithClosures(id, from, to);
      if (!found) return found;
      const { readAt, ...rest } = found;
      t.ok(readAt instanceof Date && Math.abs(readAt.getTime() - Date.now()) < 60_000, "the store's time of the read");
      return rest;
    };
    t.same(await read(garage.id, '2026-12-26', '2027-01-01'), { garage, closures: [christmas, newYear] });
    t.same(await read(garage.id, '2026-12-27', '2026-12-31'), { garage, closures: [] });
    t.same(await read(other.id, '2026-12-31', '2026-12-31'), {
      garage: await repos.garages.findById(other.id),
      closures: await repos.garages.listClosures(other.id, '2026-12-31', '2026-12-31'),
    });
    t.equal(await repos.garages.findWithClosures(randomUUID(), '2026-01-01', '2027-12-31'), null);
    t.equal(await repos.garages.findWithClosures('not-a-uuid', '2026-01-01', '2027-12-31'), null);
  });

  t.test('a closure for a garage that does not exist is INVALID_REFERENCE', async (t) => {
    const closure = { from: '2026-12-24', to: '2026-12-24', reason: 'x' };
    await t.rejects(repos.garages.addClosure({ garageId: randomUUID(), ...closure }), { code: 'INVALID_REFERENCE' });
    await t.rejects(repos.garages.addClosure({ garageId: 'nope', ...closure }), { code: 'INVALID_REFERENCE' });
  });
};
