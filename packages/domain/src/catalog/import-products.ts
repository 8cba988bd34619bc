import type { ProductImportRow } from './catalog-items.js';
import { CURRENCY } from '../kernel/validation.js';
import { type ImportResult, type RowCheck, checkRows, type ImportDeps, findGarage } from '../kernel/import-rows.js';

const PRODUCT_FIELDS = ['sku', 'name', 'priceCents', 'description', 'category', 'brand', 'currency', 'vatRate', 'unit', 'active'];

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

/** Each import is one transaction: a bad row writes nothing. */
export const makeImportProducts =
  ({ garages, uow }: ImportDeps) =>
  async (garageSlug: string, rows: unknown): Promise<ImportResult> => {
    const valid = checkRows<ProductImportRow>(rows, 'sku', checkProduct);
    const garage = await findGarage(garages, garageSlug);
    const ids = await uow.run((tx) => tx.products.upsertMany(garage.id, valid, garage.currency));
    return { upserted: valid.length, ids };
  };
