import { sql, type Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { lockForGarage } from './locks.js';

/** The database clock at millisecond precision, so that keyset cursors built from it compare exactly. */
export const nowMs = sql<Date>`date_trunc('milliseconds', now())`;

/**
 * The `updated_at` for one catalog write (products and stock) of a garage, taken under a per-garage lock held until
 * commit, and strictly later than every row already committed. Keyset pages ordered by `(updated_at, id)` therefore
 * never miss a row: a row committed after a page was read always sorts after that page's position, even when two
 * writes fall in the same millisecond or a writer started before a concurrent one committed.
 */
export const catalogWriteTime = async (trx: Transaction<Database>, garageId: string): Promise<Date> => {
  await lockForGarage(trx, 'catalog', garageId);
  // A separate statement: under READ COMMITTED it sees the rows of the writer that held the lock before us.
  const { at } = await trx
    .selectNoFrom(
      sql<Date>`greatest(
        date_trunc('milliseconds', clock_timestamp()),
        (select max(updated_at) from products where garage_id = ${garageId}) + interval '1 millisecond',
        (select max(updated_at) from stock where garage_id = ${garageId}) + interval '1 millisecond'
      )`.as('at'),
    )
    .executeTakeFirstOrThrow();
  return at;
};
