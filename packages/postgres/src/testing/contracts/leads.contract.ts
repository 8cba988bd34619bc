import { randomUUID } from 'node:crypto';
import type { NewLead } from '@garage/domain';
import { newGarage, vehicleRow } from '@garage/domain/testing';
import type { Contract } from './harness.js';

export const leadRepositoryContract: Contract<'repos'> = (t, { repos }) => {
  const lead = (garageId: string, vehicleId: string): NewLead => ({
    garageId,
    vehicleId,
    name: 'Paul Durand',
    email: 'paul@example.com',
    phone: null,
    message: 'Still available?',
    consent: true,
  });

  t.test('a lead is stored against its vehicle and garage', async (t) => {
    const garage = await newGarage(repos);
    const ids = await repos.vehicles.upsertMany(garage.id, [vehicleRow(1)], 'EUR');
    const input = lead(garage.id, ids['VO-001']!);
    const created = await repos.leads.create(input);
    t.same(created, { ...input, id: created.id, createdAt: created.createdAt });
    t.type(created.createdAt, Date);
  });

  t.test('a lead for an unknown vehicle, or a vehicle of another garage, is INVALID_REFERENCE', async (t) => {
    const garage = await newGarage(repos);
    const other = await newGarage(repos);
    const ids = await repos.vehicles.upsertMany(other.id, [vehicleRow(1)], 'EUR');
    await t.rejects(repos.leads.create(lead(garage.id, randomUUID())), { code: 'INVALID_REFERENCE' });
    await t.rejects(repos.leads.create(lead(garage.id, ids['VO-001']!)), { code: 'INVALID_REFERENCE' });
    await t.rejects(repos.leads.create(lead(garage.id, 'not-a-uuid')), { code: 'INVALID_REFERENCE' });
  });
};
