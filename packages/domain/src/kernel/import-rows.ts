import { NotFoundError, ValidationError } from './errors.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import type { UnitOfWork } from './unit-of-work.port.js';
import { Checker, isRecord } from './validation.js';

export interface ImportResult {
  upserted: number;
  /** sku (products, stock) or reference (vehicles) → id */
  ids: Record<string, string>;
}

export type RowCheck = (check: Checker, path: string, row: Record<string, unknown>) => void;

/** Validates a whole import file before anything is written, and rejects a key that appears twice. */
export const checkRows = <T>(rows: unknown, keyField: string, checkRow: RowCheck): T[] => {
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

export type ImportDeps = { garages: Pick<GarageRepository, 'findBySlug'>; uow: UnitOfWork };

export const findGarage = async (garages: ImportDeps['garages'], slug: string) => {
  const garage = await garages.findBySlug(slug);
  if (!garage) throw new NotFoundError(`Garage ${slug} not found`);
  return garage;
};
