import { randomBytes } from 'node:crypto';
import {
  makeDestinationPolicy,
  parseEncryptionKey,
  type CreateGarageCommand,
  type ProductImportRow,
  type SyncToggle,
  type VehicleImportRow,
} from '@garage/domain';
import type { Db } from '@garage/postgres';
import { makeAdminUseCases, type AdminUseCases } from '../admin-use-cases.js';

/**
 * The data tests seed, written through the operator's use cases (the same ones as the CLI), so that a scenario reads
 * alike in the API's in-process tests, the system tests and the documentation's.
 */

/** The ENCRYPTION_KEY of this test process: give it to the API under test so that both read the same secrets. */
export const ENCRYPTION_KEY = randomBytes(32).toString('base64');

/** `WEBHOOK_ALLOWED_NETWORKS` for tests whose webhook receivers listen on loopback, which is refused by default. */
export const LOOPBACK_NETWORKS = '127.0.0.0/8,::1/128';

/** The first API version: the seeded integrations are pinned to it, and the tests written against it assert its shapes. */
export const FIRST_VERSION = '2026-11-21';

/** The operator's use-cases on a test's database, configured as with `WEBHOOK_ALLOWED_NETWORKS` set to loopback. */
export const adminFor = (db: Db): AdminUseCases =>
  makeAdminUseCases(db, [parseEncryptionKey(ENCRYPTION_KEY, 'ENCRYPTION_KEY')], { destinations: makeDestinationPolicy(LOOPBACK_NETWORKS.split(',')) });

export const product = (sku: string, extra: Partial<ProductImportRow> = {}): ProductImportRow => ({
  sku,
  name: `Product ${sku}`,
  priceCents: 1000,
  vatRate: 20,
  unit: 'piece',
  ...extra,
});

export const vehicle = (reference: string, extra: Partial<VehicleImportRow> = {}): VehicleImportRow => ({
  reference,
  make: 'Peugeot',
  model: '208',
  year: 2021,
  mileageKm: 30000,
  fuel: 'petrol',
  gearbox: 'manual',
  priceCents: 1500000,
  ...extra,
});

export interface SeededGarage {
  slug: string;
  /** Keys by what the integration may do. */
  keys: { all: string; catalog: string; stock: string; none: string };
  integrationIds: { all: string; catalog: string; stock: string; none: string };
  productIds: Record<string, string>;
  vehicleIds: Record<string, string>;
}

/**
 * A garage with one integration per toggle combination that matters here, a small catalog with stock, and a fleet
 * with one vehicle of each status.
 */
export const seedGarage = async (admin: AdminUseCases, slug = 'acme'): Promise<SeededGarage> => {
  await admin.createGarage({ slug, name: `Garage ${slug}` });
  const integration = async (name: string, sync: SyncToggle[]) => {
    const created = await admin.createIntegration({ garageSlug: slug, name, sync, webhookUrl: null, apiVersion: FIRST_VERSION });
    return { key: created.apiKey, id: created.integration.id };
  };
  const all = await integration('all', ['appointments', 'catalog', 'stock']);
  const catalog = await integration('catalog only', ['catalog']);
  const stock = await integration('stock only', ['stock']);
  const none = await integration('no toggle', []);
  const products = await admin.importProducts(slug, [product('A-1'), product('B-2', { description: 'Second' }), product('C-3')]);
  await admin.importStock(slug, [
    { sku: 'A-1', quantity: 5 },
    { sku: 'B-2', quantity: 0 },
    { sku: 'C-3', quantity: 12 },
  ]);
  const vehicles = await admin.importVehicles(slug, [
    vehicle('V-1', { make: 'Peugeot', fuel: 'petrol', photos: ['https://img.example/v1.jpg'] }),
    vehicle('V-2', { make: 'Renault', fuel: 'diesel', status: 'reserved' }),
    vehicle('V-3', { make: 'Tesla', fuel: 'electric' }),
    vehicle('V-SOLD', { make: 'Peugeot', status: 'sold' }),
  ]);
  return {
    slug,
    keys: { all: all.key, catalog: catalog.key, stock: stock.key, none: none.key },
    integrationIds: { all: all.id, catalog: catalog.id, stock: stock.id, none: none.id },
    productIds: products.ids,
    vehicleIds: vehicles.ids,
  };
};

export interface BookingGarage {
  id: string;
  slug: string;
  /** syncAppointments and a webhook URL. */
  shop: { id: string; key: string };
  /** syncAppointments, no webhook URL. */
  partner: { id: string; key: string };
  /** syncCatalog only, with a webhook URL: may not book, receives no appointment event. */
  catalog: { id: string; key: string };
  /** Product ids by sku: A-1, B-2. */
  products: Record<string, string>;
}

let garageCount = 0;

/** A garage to book in (`booking-1`, `booking-2`, … in this process), with its integrations and two products. */
export const createBookingGarage = async (
  admin: AdminUseCases,
  settings: Omit<CreateGarageCommand, 'slug' | 'name'> = {},
): Promise<BookingGarage> => {
  garageCount += 1;
  const slug = `booking-${garageCount}`;
  const garage = await admin.createGarage({ slug, name: `Garage ${slug}`, ...settings });
  const integration = async (name: string, sync: ('appointments' | 'catalog')[], webhookUrl: string | null) => {
    const created = await admin.createIntegration({ garageSlug: slug, name, sync, webhookUrl, apiVersion: FIRST_VERSION });
    return { id: created.integration.id, key: created.apiKey };
  };
  const shop = await integration('shop', ['appointments'], 'http://127.0.0.1:9/hooks/shop');
  const partner = await integration('partner', ['appointments'], null);
  const catalog = await integration('catalog', ['catalog'], 'http://127.0.0.1:9/hooks/catalog');
  const { ids } = await admin.importProducts(slug, [product('A-1'), product('B-2')]);
  return { id: garage.id, slug, shop, partner, catalog, products: ids };
};

export const customer = { name: 'Jeanne Martin', email: 'jeanne@example.com' };

export const bookingBody = (startsAt: string, extra: Record<string, unknown> = {}) => ({ startsAt, customer, ...extra });
