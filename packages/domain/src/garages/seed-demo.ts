import type { ProductImportRow } from '../catalog/catalog-items.js';
import type { VehicleImportRow } from '../fleet/vehicle.js';
import type { Clock } from '../kernel/clock.port.js';
import type { GarageRepository } from './garage-repository.port.js';
import type { makeCreateGarage } from './create-garage.js';
import type { CreatedIntegration, makeCreateIntegration } from '../integrations/create-integration.js';
import type { makeImportProducts } from '../catalog/import-products.js';
import type { makeImportStock } from '../catalog/import-stock.js';
import type { makeImportVehicles } from '../fleet/import-vehicles.js';
import type { makeCreateQuote } from '../quotes/create-quote.js';

export const DEMO_GARAGE_SLUG = 'demo';

export interface DemoCredentials {
  garage: string;
  /** Each with its test key, test webhook secret and sandbox slug beside its live key (docs/reference/contract.md §9). */
  integrations: {
    id: string;
    name: string;
    apiKey: string;
    webhookSecret: string;
    testApiKey: string;
    testWebhookSecret: string;
    sandboxGarageSlug: string;
  }[];
  quotes: { id: string; number: string; token: string; status: 'pending' | 'expired' }[];
}

/** What the demo credentials keep of a created integration: its keys and secrets, live and test, and its sandbox. */
export const demoIntegrationCredentials = (created: CreatedIntegration): DemoCredentials['integrations'][number] => ({
  id: created.integration.id,
  name: created.integration.name,
  apiKey: created.apiKey,
  webhookSecret: created.webhookSecret,
  testApiKey: created.sandbox.testApiKey,
  testWebhookSecret: created.sandbox.testWebhookSecret,
  sandboxGarageSlug: created.sandbox.garage.slug,
});

const PRODUCTS: ProductImportRow[] = [
  ['OIL-5W30-5L', 'Engine oil 5W-30, 5 L', 4290, 'Lubricants', 'Total', 'piece'],
  ['OIL-FILTER-PSA', 'Oil filter', 1290, 'Filters', 'Purflux', 'piece'],
  ['AIR-FILTER-208', 'Air filter', 1890, 'Filters', 'Bosch', 'piece'],
  ['CABIN-FILTER', 'Cabin filter', 2190, 'Filters', 'Valeo', 'piece'],
  ['BRAKE-PADS-F', 'Front brake pads', 5490, 'Brakes', 'Brembo', 'piece'],
  ['BRAKE-DISCS-F', 'Front brake discs (pair)', 8990, 'Brakes', 'Brembo', 'piece'],
  ['WIPER-BLADES', 'Wiper blades (pair)', 2490, 'Accessories', 'Bosch', 'piece'],
  ['COOLANT-1L', 'Coolant, 1 L', 890, 'Fluids', 'Motul', 'litre'],
  ['BATTERY-70AH', 'Battery 70 Ah', 12900, 'Electrical', 'Varta', 'piece'],
  ['LABOUR-HOUR', 'Workshop labour', 6500, 'Labour', null, 'hour'],
].map(([sku, name, priceCents, category, brand, unit]) => ({
  sku: sku as string,
  name: name as string,
  priceCents: priceCents as number,
  category: category as string,
  brand: brand as string | null,
  unit: unit as string,
  vatRate: 20,
}));

const VEHICLES: VehicleImportRow[] = [
  { reference: 'VO-1001', make: 'Peugeot', model: '208', version: '1.2 PureTech 100', year: 2021, mileageKm: 32000, fuel: 'petrol', gearbox: 'manual', priceCents: 1549000, color: 'Blue' },
  { reference: 'VO-1002', make: 'Renault', model: 'Clio', version: 'E-Tech 140', year: 2022, mileageKm: 18000, fuel: 'hybrid', gearbox: 'automatic', priceCents: 1899000, color: 'Grey' },
  { reference: 'VO-1003', make: 'Tesla', model: 'Model 3', version: 'Long Range', year: 2020, mileageKm: 64000, fuel: 'electric', gearbox: 'automatic', priceCents: 2790000, color: 'White' },
  { reference: 'VO-1004', make: 'Volkswagen', model: 'Golf', version: '2.0 TDI 115', year: 2019, mileageKm: 88000, fuel: 'diesel', gearbox: 'manual', priceCents: 1690000, color: 'Black', status: 'reserved' },
  { reference: 'VO-1005', make: 'Dacia', model: 'Sandero', version: 'ECO-G 100', year: 2023, mileageKm: 9000, fuel: 'lpg', gearbox: 'manual', priceCents: 1390000, color: 'Orange' },
];

interface SeedDeps {
  garages: Pick<GarageRepository, 'findBySlug'>;
  clock: Clock;
  createGarage: ReturnType<typeof makeCreateGarage>;
  createIntegration: ReturnType<typeof makeCreateIntegration>;
  importProducts: ReturnType<typeof makeImportProducts>;
  importStock: ReturnType<typeof makeImportStock>;
  importVehicles: ReturnType<typeof makeImportVehicles>;
  createQuote: ReturnType<typeof makeCreateQuote>;
}

/**
 * Creates the demo garage with its catalog, stock and fleet when it does not exist yet, then issues a fresh demo
 * integration (every toggle on) and two quotes, one pending and one expired. Keys and tokens exist only in the result.
 */
/** `apiVersion`: the version to pin the demo integration to (the transports pass the latest). */
export const makeSeedDemo = (deps: SeedDeps) => async ({ apiVersion }: { apiVersion?: string } = {}): Promise<DemoCredentials> => {
  if (!(await deps.garages.findBySlug(DEMO_GARAGE_SLUG))) {
    await deps.createGarage({ slug: DEMO_GARAGE_SLUG, name: 'Garage du Centre (demo)', hours: 'mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00' });
    await deps.importProducts(DEMO_GARAGE_SLUG, PRODUCTS);
    await deps.importStock(DEMO_GARAGE_SLUG, PRODUCTS.map((p, i) => ({ sku: p.sku, quantity: (i * 7) % 25 })));
    await deps.importVehicles(DEMO_GARAGE_SLUG, VEHICLES);
  }
  const created = await deps.createIntegration({
    garageSlug: DEMO_GARAGE_SLUG,
    name: 'Demo shop',
    sync: ['appointments', 'catalog', 'stock'],
    webhookUrl: null,
    ...(apiVersion === undefined ? {} : { apiVersion }),
  });
  const day = 86_400_000;
  const now = deps.clock.nowMs();
  const lines = [
    { label: 'Front brake pads', quantity: 1, unitPriceCents: 5490, vatRate: 20 },
    { label: 'Workshop labour', quantity: 1.5, unitPriceCents: 6500, vatRate: 20 },
  ];
  const pending = await deps.createQuote({ garageSlug: DEMO_GARAGE_SLUG, customerName: 'Jeanne Martin', lines, expiresAt: new Date(now + 30 * day) });
  const expired = await deps.createQuote({ garageSlug: DEMO_GARAGE_SLUG, customerName: 'Paul Durand', lines, expiresAt: new Date(now - day) });
  return {
    garage: DEMO_GARAGE_SLUG,
    integrations: [demoIntegrationCredentials(created)],
    quotes: [
      { id: pending.quote.id, number: pending.quote.number, token: pending.token, status: 'pending' },
      { id: expired.quote.id, number: expired.quote.number, token: expired.token, status: 'expired' },
    ],
  };
};
