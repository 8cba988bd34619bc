import type { StockImportRow } from './catalog-items.js';
import { type ImportResult, type RowCheck, checkRows, type ImportDeps, findGarage } from '../kernel/import-rows.js';

const STOCK_FIELDS = ['sku', 'quantity'];

const checkStock: RowCheck = (check, path, row) => {
  check.knownFields(path, row, STOCK_FIELDS);
  check.string(`${path}/sku`, row.sku, { max: 100 });
  check.integer(`${path}/quantity`, row.quantity, { max: 2_147_483_647 });
};

export const makeImportStock =
  ({ garages, uow }: ImportDeps) =>
  async (garageSlug: string, rows: unknown): Promise<ImportResult> => {
    const valid = checkRows<StockImportRow>(rows, 'sku', checkStock);
    const garage = await findGarage(garages, garageSlug);
    const ids = await uow.run((tx) => tx.stock.setQuantities(garage.id, valid));
    return { upserted: valid.length, ids };
  };
