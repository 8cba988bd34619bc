import type { ProductImportRow, StockImportRow } from './catalog-items.js';
import { FUELS, GEARBOXES, VEHICLE_STATUSES, type VehicleImportRow } from '../fleet/vehicle.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import type { UnitOfWork } from '../shared/unit-of-work.port.js';
import { Checker, CURRENCY, isRecord } from '../shared/validation.js';

export interface ImportResult {
  upserted: number;
  /** sku (products, stock) or reference (vehicles) → id */
  ids: Record<string, string>;
}

type RowCheck = (check: Checker, path: string, row: Record<string, unknown>) => void;

const PRODUCT_FIELDS = ['sku', 'name', 'priceCents', 'description', 'category', 'brand', 'currency', 'vatRate', 'unit', 'active'];
const STOCK_FIELDS = ['sku', 'quantity'];
const VEHICLE_FIELDS = [
  'reference', 'make', 'model', 'year', 'mileageKm', 'fuel', 'gearbox', 'priceCents',
  'version', 'color', 'description', 'photos', 'status',
];

const checkProduct: RowCheck = (check, path, row) => {
  check.knownFields(path, row, PRODUCT_FIELDS);
  check.string(`${path}/sku`, row.sku, { max: 100 });
  check.string(`${path}/name`, row.name, { max: 255 });
  check.integer(`${path}/priceCents`, row.priceCents);
  check.string(`${path}/description`, row.description, { optional: true, min: 0, max: 5000 });
  check.string(`${path}/category`, row.category, { optional: true, max: 120 });
  check.string(`${path}/brand`, row.brand, { optional: true, max: 120 });
  if (row.currency !== undefined && (typeof row.currency !== 'string' || !CURRENCY.test(row.currency))) {
    check.fail(`${path}/currency`, 'must be an ISO 4217 code such as EUR');
  }
  check.number(`${path}/vatRate`, row.vatRate, { optional: true });
  check.string(`${path}/unit`, row.unit, { optional: true, max: 30 });
  if (row.active !== undefined && typeof row.active !== 'boolean') check.fail(`${path}/active`, 'must be a boolean');
};

const checkStock: RowCheck = (check, path, row) => {
  check.knownFields(path, row, STOCK_FIELDS);
  check.string(`${path}/sku`, row.sku, { max: 100 });
  check.integer(`${path}/quantity`, row.quantity, { max: 2_147_483_647 });
};

const checkVehicle: RowCheck = (check, path, row) => {
  check.knownFields(path, row, VEHICLE_FIELDS);
  check.string(`${path}/reference`, row.reference, { max: 100 });
  check.string(`${path}/make`, row.make, { max: 80 });
  check.string(`${path}/model`, row.model, { max: 80 });
  check.integer(`${path}/year`, row.year, { min: 1900, max: 2100 });
  check.integer(`${path}/mileageKm`, row.mileageKm, { max: 10_000_000 });
  check.oneOf(`${path}/fuel`, row.fuel, FUELS);
  check.oneOf(`${path}/gearbox`, row.gearbox, GEARBOXES);
  check.integer(`${path}/priceCents`, row.priceCents);
  check.string(`${path}/version`, row.version, { optional: true, max: 120 });
  check.string(`${path}/color`, row.color, { optional: true, max: 60 });
  check.string(`${path}/description`, row.description, { optional: true, min: 0, max: 5000 });
  check.oneOf(`${path}/status`, row.status, VEHICLE_STATUSES, { optional: true });
  if (row.photos !== undefined) {
    const ok = Array.isArray(row.photos) && row.photos.every((p) => typeof p === 'string' && /^https?:\/\//.test(p));
    if (!ok) check.fail(`${path}/photos`, 'must be an array of http(s) URLs');
  }
};

/** Validates a whole import file before anything is written, and rejects a key that appears twice. */
const checkRows = <T>(rows: unknown, keyField: string, checkRow: RowCheck): T[] => {
  if (!Array.isArray(rows)) throw new ValidationError('An import file must be a JSON array', [{ path: '', message: 'must be an array' }]);
  const check = new Checker();
  const seen = new Set<unknown>();
  rows.forEach((row, i) => {
    if (!isRecord(row)) return check.fail(`/${i}`, 'must be an object');
    checkRow(check, `/${i}`, row);
    if (seen.has(row[keyField])) check.fail(`/${i}/${keyField}`, 'appears twice in the file');
    seen.add(row[keyField]);
  });
  check.throwIfAny('Invalid import file');
  return rows as T[];
};

type ImportDeps = { garages: Pick<GarageRepository, 'findBySlug'>; uow: UnitOfWork };

const findGarage = async (garages: ImportDeps['garages'], slug: string) => {
  const garage = await garages.findBySlug(slug);
  if (!garage) throw new NotFoundError(`Garage ${slug} not found`);
  return garage;
};

/** Each import is one transaction: a bad row writes nothing. */
export const makeImportProducts =
  ({ garages, uow }: ImportDeps) =>
  async (garageSlug: string, rows: unknown): Promise<ImportResult> => {
    const valid = checkRows<ProductImportRow>(rows, 'sku', checkProduct);
    const garage = await findGarage(garages, garageSlug);
    const ids = await uow.run((tx) => tx.products.upsertMany(garage.id, valid, garage.currency));
    return { upserted: valid.length, ids };
  };

export const makeImportStock =
  ({ garages, uow }: ImportDeps) =>
  async (garageSlug: string, rows: unknown): Promise<ImportResult> => {
    const valid = checkRows<StockImportRow>(rows, 'sku', checkStock);
    const garage = await findGarage(garages, garageSlug);
    const ids = await uow.run((tx) => tx.stock.setQuantities(garage.id, valid));
    return { upserted: valid.length, ids };
  };

export const makeImportVehicles =
  ({ garages, uow }: ImportDeps) =>
  async (garageSlug: string, rows: unknown): Promise<ImportResult> => {
    const valid = checkRows<VehicleImportRow>(rows, 'reference', checkVehicle);
    const garage = await findGarage(garages, garageSlug);
    const ids = await uow.run((tx) => tx.vehicles.upsertMany(garage.id, valid, garage.currency));
    return { upserted: valid.length, ids };
  };
