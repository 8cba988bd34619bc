import { randomUUID } from 'node:crypto';
import type { Repositories, Vehicle, VehicleListQuery } from '@garage/domain';
import { newGarage, vehicleRow, sleep } from '@garage/domain/testing';
import { occurrences, walk, type Contract } from './harness.js';

const listAll = (repos: Repositories, query: Partial<VehicleListQuery> & { garageId: string }, limit = 1000) =>
  walk(
    (after, pageLimit) =>
      repos.vehicles.list({ limit: pageLimit, after, updatedSince: null, make: null, fuel: null, ...query }),
    (v: Vehicle) => ({ sortValue: v.publishedAt, id: v.id }),
    { limit },
  );

const refs = (vehicles: Vehicle[]) => vehicles.map((v) => v.reference);

export const vehicleRepositoryContract: Contract<'repos'> = (t, { repos }) => {
  t.test('an imported vehicle is listed and found mapped to the domain', async (t) => {
    const garage = await newGarage(repos);
    const photos = ['https://img.example/1.jpg', 'https://img.example/2.jpg'];
    const ids = await repos.vehicles.upsertMany(
      garage.id,
      [vehicleRow(1, { version: '1.2 PureTech', color: 'Blue', description: 'Clean', photos, status: 'reserved' })],
      'EUR',
    );
    const [vehicle] = await listAll(repos, { garageId: garage.id });
    t.same(vehicle, {
      id: ids['VO-001'],
      reference: 'VO-001',
      make: 'Peugeot',
      model: '208',
      version: '1.2 PureTech',
      year: 2020,
      mileageKm: 10_001,
      fuel: 'petrol',
      gearbox: 'manual',
      priceCents: 1_500_001,
      currency: 'EUR',
      color: 'Blue',
      description: 'Clean',
      photos,
      status: 'reserved',
      publishedAt: vehicle?.publishedAt,
      updatedAt: vehicle?.updatedAt,
    });
    t.type(vehicle?.publishedAt, Date);
    t.same(await repos.vehicles.findPublicById(ids['VO-001']!, garage.id), { ...vehicle, garageId: garage.id });
    t.same(await repos.vehicles.findPublicById(ids['VO-001']!, null), { ...vehicle, garageId: garage.id });
  });

  t.test('newest published first; sold vehicles are neither listed nor found', async (t) => {
    const garage = await newGarage(repos);
    const ids = await repos.vehicles.upsertMany(garage.id, [vehicleRow(1), vehicleRow(2, { status: 'sold' })], 'EUR');
    await sleep(5);
    await repos.vehicles.upsertMany(garage.id, [vehicleRow(3)], 'EUR');
    t.same(refs(await listAll(repos, { garageId: garage.id })), ['VO-003', 'VO-001']);
    t.equal(await repos.vehicles.findPublicById(ids['VO-002']!, garage.id), null);
    t.equal(await repos.vehicles.findPublicById(ids['VO-002']!, null), null);
  });

  t.test('walking the pages returns every vehicle exactly once, while vehicles are edited', async (t) => {
    const garage = await newGarage(repos);
    const rows = Array.from({ length: 23 }, (_, i) => vehicleRow(i + 1));
    for (const batch of [rows.slice(0, 8), rows.slice(8, 15), rows.slice(15)]) {
      await repos.vehicles.upsertMany(garage.id, batch, 'EUR');
    }
    let edits = 0;
    const seen = await walk(
      (after, limit) =>
        repos.vehicles.list({ garageId: garage.id, limit, after, updatedSince: null, make: null, fuel: null }),
      (v) => ({ sortValue: v.publishedAt, id: v.id }),
      {
        limit: 5,
        between: async () => {
          edits += 1;
          await repos.vehicles.upsertMany(garage.id, rows.map((r) => ({ ...r, priceCents: r.priceCents + edits })), 'EUR');
        },
      },
    );
    t.same(Object.values(occurrences(refs(seen))), Array(23).fill(1));
    const positions = seen.map((v) => `${v.publishedAt.toISOString()} ${v.id}`);
    t.same(positions, [...positions].sort().reverse(), 'newest first, ties broken by id');
  });

  t.test('filters: make (case-insensitive), fuel, updatedSince', async (t) => {
    const garage = await newGarage(repos);
    await repos.vehicles.upsertMany(
      garage.id,
      [vehicleRow(1, { make: 'Renault' }), vehicleRow(2, { make: 'RENAULT', fuel: 'diesel' }), vehicleRow(3)],
      'EUR',
    );
    t.same(refs(await listAll(repos, { garageId: garage.id, make: 'renault' })).sort(), ['VO-001', 'VO-002']);
    t.same(refs(await listAll(repos, { garageId: garage.id, make: 'renau' })), []);
    t.same(refs(await listAll(repos, { garageId: garage.id, make: 'Renault', fuel: 'diesel' })), ['VO-002']);
    const [latest] = await listAll(repos, { garageId: garage.id, make: 'peugeot' });
    await sleep(5);
    await repos.vehicles.upsertMany(garage.id, [vehicleRow(3, { mileageKm: 99_999 })], 'EUR');
    const [edited] = await listAll(repos, { garageId: garage.id, make: 'peugeot' });
    t.ok((edited?.updatedAt.getTime() ?? 0) > (latest?.updatedAt.getTime() ?? Infinity));
    t.same(refs(await listAll(repos, { garageId: garage.id, updatedSince: edited?.updatedAt ?? null })), ['VO-003']);
  });

  t.test('a re-import keeps publishedAt, and updatedAt unless something changed', async (t) => {
    const garage = await newGarage(repos);
    await repos.vehicles.upsertMany(garage.id, [vehicleRow(1), vehicleRow(2)], 'EUR');
    const byReference = async () =>
      (await listAll(repos, { garageId: garage.id })).sort((a, b) => a.reference.localeCompare(b.reference));
    const [before1, before2] = await byReference();
    await sleep(5);
    const photos = ['https://img.example/new.jpg'];
    await repos.vehicles.upsertMany(garage.id, [vehicleRow(1), vehicleRow(2, { photos })], 'EUR');
    const [after1, after2] = await byReference();
    t.same(after1, before1);
    t.same(after2?.publishedAt, before2?.publishedAt);
    t.ok((after2?.updatedAt.getTime() ?? 0) > (before2?.updatedAt.getTime() ?? Infinity));
    t.same(after2?.photos, photos);
  });

  t.test('a vehicle of another garage, an unknown or a malformed id is not found', async (t) => {
    const garage = await newGarage(repos);
    const other = await newGarage(repos);
    const ids = await repos.vehicles.upsertMany(other.id, [vehicleRow(1)], 'EUR');
    t.equal(await repos.vehicles.findPublicById(ids['VO-001']!, garage.id), null);
    t.equal(await repos.vehicles.findPublicById(randomUUID(), null), null);
    t.equal(await repos.vehicles.findPublicById('not-a-uuid', null), null);
    t.equal(await repos.vehicles.findPublicById(ids['VO-001']!, 'not-a-uuid'), null);
    t.same(await listAll(repos, { garageId: 'not-a-uuid' }), []);
  });

  t.test('vehicles of a garage that does not exist are INVALID_REFERENCE', async (t) => {
    await t.rejects(repos.vehicles.upsertMany(randomUUID(), [vehicleRow(1)], 'EUR'), { code: 'INVALID_REFERENCE' });
  });
};
