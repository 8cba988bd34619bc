import { FUELS, GEARBOXES, VEHICLE_STATUSES, type VehicleImportRow } from './vehicle.js';
import { type ImportResult, type RowCheck, checkRows, type ImportDeps, findGarage } from '../kernel/import-rows.js';

const VEHICLE_FIELDS = [
  'reference', 'make', 'model', 'year', 'mileageKm', 'fuel', 'gearbox', 'priceCents',
  'version', 'color', 'description', 'photos', 'status',
];

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

export const makeImportVehicles =
  ({ garages, uow }: ImportDeps) =>
  async (garageSlug: string, rows: unknown): Promise<ImportResult> => {
    const valid = checkRows<VehicleImportRow>(rows, 'reference', checkVehicle);
    const garage = await findGarage(garages, garageSlug);
    const ids = await uow.run((tx) => tx.vehicles.upsertMany(garage.id, valid, garage.currency));
    return { upserted: valid.length, ids };
  };
