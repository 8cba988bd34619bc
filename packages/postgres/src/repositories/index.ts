import type { BookingWriter, Repositories, Transaction as DomainTransaction, UnitOfWork } from '@garage/domain';
import type { Kysely, Transaction } from 'kysely';
import { toDomainError, withErrorMapping } from '../errors.js';
import { makeIdempotencyStore } from '../idempotency-store.js';
import type { Database } from '../schema.js';
import { makeBulkWrites, refreshPlannerStatistics, type BulkWrites } from '../statistics.js';
import { inTransaction, runningAgain } from '../transactions.js';
import { makeOutbox } from '../webhooks/outbox.js';
import { listOverlappingUnderLock, makeAppointmentReader, makeAppointmentRepository, makeBookingWriter } from './appointment-repository.js';
import { makeAvailabilityReader } from './availability-reader.js';
import { makeGarageRepository } from './garage-repository.js';
import { makeIntegrationRepository } from './integration-repository.js';
import { makeLeadRepository } from './lead-repository.js';
import { madeOnFirstUse } from './made-on-first-use.js';
import { acquireBookingLock } from './locks.js';
import { makeProductReader, makeProductRepository } from './product-repository.js';
import { makeQuoteReader, makeQuoteRepository } from './quote-repository.js';
import { makeSandboxStore } from './sandbox-store.js';
import { makeStockReader, makeStockRepository } from './stock-repository.js';
import { makeVehicleReader, makeVehicleRepository } from './vehicle-repository.js';

export { makeListVersionProbe } from './list-version-probe.js';

/** What runs on the pool: reads and one-statement writes, with database errors mapped to domain errors. */
export const makeRepositories = (db: Kysely<Database>): Repositories => ({
  garages: withErrorMapping(makeGarageRepository(db)),
  integrations: withErrorMapping(makeIntegrationRepository(db)),
  products: withErrorMapping(makeProductReader(db)),
  stock: withErrorMapping(makeStockReader(db)),
  vehicles: withErrorMapping(makeVehicleReader(db)),
  quotes: withErrorMapping(makeQuoteReader(db)),
  appointments: withErrorMapping(makeAppointmentReader(db)),
  availability: withErrorMapping(makeAvailabilityReader(db)),
  bookings: withErrorMapping(bookingsOnPool(db)),
});

/** A booking's write on the pool is a transaction of its own: one that Postgres aborted runs again, as one would. */
const bookingsOnPool = (db: Kysely<Database>): BookingWriter => {
  const writer = makeBookingWriter(db);
  return { bookIfRoom: (request) => runningAgain(() => writer.bookIfRoom(request)) };
};

/**
 * Everything a unit of work may touch, bound to its transaction, each repository made when the work first reads it;
 * its bulk writes are recorded in `bulkWrites`.
 */
const makeTransaction = (trx: Transaction<Database>, bulkWrites: BulkWrites): DomainTransaction =>
  madeOnFirstUse<DomainTransaction>({
    garages: () => withErrorMapping(makeGarageRepository(trx)),
    integrations: () => withErrorMapping(makeIntegrationRepository(trx)),
    products: () => withErrorMapping(makeProductRepository(trx, bulkWrites)),
    stock: () => withErrorMapping(makeStockRepository(trx, bulkWrites)),
    vehicles: () => withErrorMapping(makeVehicleRepository(trx, bulkWrites)),
    quotes: () => withErrorMapping(makeQuoteRepository(trx)),
    appointments: () => withErrorMapping(makeAppointmentRepository(trx)),
    availability: () => withErrorMapping(makeAvailabilityReader(trx)),
    bookings: () => withErrorMapping(makeBookingWriter(trx)),
    leads: () => withErrorMapping(makeLeadRepository(trx)),
    outbox: () => makeOutbox(trx),
    bookingLocks: () =>
      withErrorMapping({
        acquire: (key) => acquireBookingLock(trx, key),
        acquireAndListOverlapping: (key, from, to, excludeId) => listOverlappingUnderLock(trx, key, from, to, excludeId),
      }),
    idempotencyRecords: () => makeIdempotencyStore(trx),
    sandboxes: () => withErrorMapping(makeSandboxStore(trx)),
  });

export interface UnitOfWorkOptions {
  /**
   * Told when the statistics refresh after a committed bulk write fails (a statement timeout on a huge table): the
   * work stays committed, and autovacuum refreshes the statistics later. The API logs it; by default it is a process
   * warning, on stderr.
   */
  onStatisticsNotRefreshed?: (err: unknown, tables: readonly string[]) => void;
}

const warnStatisticsNotRefreshed = (err: unknown, tables: readonly string[]) =>
  process.emitWarning(`planner statistics of ${tables.join(', ')} not refreshed after a bulk write (autovacuum will): ${err instanceof Error ? err.message : String(err)}`);

/**
 * One transaction per `run`, in READ COMMITTED whatever the server default (the booking lock relies on it: each
 * statement after the lock sees what was committed before it was granted). `work` must use only the transaction it
 * is given: on PGlite, a query through the pool while a transaction is open waits for the one connection it holds.
 *
 * A transaction Postgres aborts as a deadlock's victim (a sandbox reset and a booking of that sandbox can wait on each
 * other's day and garage locks), or that a stale named statement ended, is run again (`inTransaction`): its work
 * touches nothing but the transaction.
 *
 * Once a transaction that wrote in bulk (an import, a stock batch) has committed, `run` refreshes the statistics of
 * the tables it wrote before it resolves: a connector syncing right after an import gets the plans the new rows call
 * for (docs/operators/performance.md, "Bulk writes and the planner").
 */
export const makeUnitOfWork = (db: Kysely<Database>, { onStatisticsNotRefreshed = warnStatisticsNotRefreshed }: UnitOfWorkOptions = {}): UnitOfWork => ({
  async run(work) {
    const bulkWrites = makeBulkWrites();
    let result: Awaited<ReturnType<typeof work>>;
    try {
      result = await inTransaction(db, (trx) => work(makeTransaction(trx, bulkWrites)));
    } catch (err) {
      // begin and commit fail too (connection lost, deferred constraints), outside any repository method.
      throw toDomainError(err);
    }
    // The work is committed whatever happens here: a refresh that fails is reported, not thrown, rather than report a
    // committed import as failed.
    const stale = bulkWrites.stale();
    try {
      await refreshPlannerStatistics(db, stale);
    } catch (err) {
      onStatisticsNotRefreshed(err, stale);
    }
    return result;
  },
});
