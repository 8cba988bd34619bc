import { randomBytes } from 'node:crypto';
import { makeDestinationPolicy, parseEncryptionKey } from '@garage/domain';
import { makeAdminUseCases } from '@garage/composition';
import { startReceiver } from '@garage/webhook-delivery/testing';
import { createTestDatabase } from '@garage/postgres/testing';
import type { Test } from 'tap';
import { startApiProcess } from '@garage/api/testing';

/**
 * The built API as operators run it, on a fresh Postgres database seeded through the admin use cases, with a webhook
 * receiver on loopback: what the client is tested against. Everything is stopped and dropped when `t` ends.
 */
export const startSeededApi = async (t: Test) => {
  const database = await createTestDatabase('client');
  const receiver = await startReceiver();
  t.teardown(async () => {
    await receiver.close();
    await database.drop();
  });
  const encryptionKey = randomBytes(32).toString('base64');
  // The receiver is on loopback, which webhooks reach only where the operator allows it (as the API's env does below).
  const loopback = ['127.0.0.0/8', '::1/128'];
  const admin = makeAdminUseCases(database.handle.db, [parseEncryptionKey(encryptionKey, 'ENCRYPTION_KEY')], { destinations: makeDestinationPolicy(loopback) });
  await admin.createGarage({ slug: 'client', name: 'Garage Client', horizonDays: 60, minNoticeMinutes: 0 });
  const integration = await admin.createIntegration({
    garageSlug: 'client',
    name: 'typed client',
    sync: ['appointments', 'catalog', 'stock'],
    webhookUrl: `${receiver.url}/hooks`,
  });
  const products = await admin.importProducts('client', [
    { sku: 'OIL', name: 'Oil 5W30', priceCents: 4990, vatRate: 20, unit: 'litre' },
    { sku: 'PADS', name: 'Brake pads', priceCents: 5490, vatRate: 20, unit: 'piece' },
    { sku: 'WIPER', name: 'Wiper blade', priceCents: 1290, vatRate: 20, unit: 'piece' },
  ]);
  await admin.importStock('client', [
    { sku: 'OIL', quantity: 12 },
    { sku: 'PADS', quantity: 0 },
    { sku: 'WIPER', quantity: 3 },
  ]);
  const vehicles = await admin.importVehicles('client', [
    { reference: 'V-1', make: 'Peugeot', model: '208', year: 2021, mileageKm: 30000, fuel: 'petrol', gearbox: 'manual', priceCents: 1500000 },
    { reference: 'V-2', make: 'Renault', model: 'Clio', year: 2020, mileageKm: 42000, fuel: 'diesel', gearbox: 'manual', priceCents: 1200000 },
  ]);
  const quote = (customerName: string) =>
    admin.createQuote({ garageSlug: 'client', customerName, lines: [{ label: 'Labour', quantity: 1, unitPriceCents: 6500, vatRate: 20 }] });
  const quotes = { accept: await quote('Jeanne'), refuse: await quote('Paul') };

  const api = await startApiProcess(t, {
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: encryptionKey,
    WEBHOOK_RETRY_SCHEDULE: '1h',
    WEBHOOK_ALLOWED_NETWORKS: loopback.join(','),
  });

  return {
    url: api.url,
    apiKey: integration.apiKey,
    integrationId: integration.integration.id,
    webhookSecret: integration.webhookSecret,
    /** The same integration's test key: its sandbox (docs/reference/contract.md §9). */
    testApiKey: integration.sandbox.testApiKey,
    receiver,
    productIds: products.ids,
    vehicleIds: vehicles.ids,
    quotes,
    database,
  };
};
