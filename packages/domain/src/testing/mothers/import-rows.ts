import type { ProductImportRow, VehicleImportRow } from '../../index.js';

/** The i-th product of an import; its sku and price tell rows apart. */
export const productRow = (i: number, extra: Partial<ProductImportRow> = {}): ProductImportRow => ({
  sku: `SKU-${String(i).padStart(3, '0')}`,
  name: `Product ${i}`,
  priceCents: 1000 + i,
  ...extra,
});

/** The i-th vehicle of an import; its reference, mileage and price tell rows apart. */
export const vehicleRow = (i: number, extra: Partial<VehicleImportRow> = {}): VehicleImportRow => ({
  reference: `VO-${String(i).padStart(3, '0')}`,
  make: 'Peugeot',
  model: '208',
  year: 2020,
  mileageKm: 10_000 + i,
  fuel: 'petrol',
  gearbox: 'manual',
  priceCents: 1_500_000 + i,
  ...extra,
});
