import { AsyncLocalStorage } from 'node:async_hooks';
import type { Repositories, Transaction as DomainTransaction, UnitOfWork } from '@garage/domain';
import type { Kysely, Transaction } from 'kysely';
import { toDomainError, withErrorMapping } from '../errors.js';
import { makeIdempotencyStore } from '../idempotency-store.js';
import type { Database } from '../schema.js';
import { makeOutbox } from '../webhooks/outbox.js';
import { listOverlappingUnderLock, makeAppointmentReader, makeAppointmentRepository } from './appointment-repository.js';
import { makeAvailabilityReader } from './availability-reader.js';
import { makeGarageRepository } from './garage-repository.js';
import { makeIntegrationRepository } from './integration-repository.js';
import { makeLeadRepository } from './lead-repository.js';
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
});

/** Everything a unit of work may touch, bound to its transaction. */
const makeTransaction = (trx: Transaction<Database>): DomainTransaction => ({
  garages: withErrorMapping(makeGarageRepository(trx)),
  integrations: withErrorMapping(makeIntegrationRepository(trx)),
  products: withErrorMapping(makeProductRepository(trx)),
  stock: withErrorMapping(makeStockRepository(trx)),
  vehicles: withErrorMapping(makeVehicleRepository(trx)),
  quotes: withErrorMapping(makeQuoteRepository(trx)),
  appointments: withErrorMapping(makeAppointmentRepository(trx)),
  availability: withErrorMapping(makeAvailabilityReader(trx)),
  leads: withErrorMapping(makeLeadRepository(trx)),
  outbox: makeOutbox(trx),
  bookingLocks: withErrorMapping({
    acquire: (key) => acquireBookingLock(trx, key),
    acquireAndListOverlapping: (key, from, to, excludeId) => listOverlappingUnderLock(trx, key, from, to, excludeId),
  }),
  idempotencyRecords: makeIdempotencyStore(trx),
  sandboxes: withErrorMapping(makeSandboxStore(trx)),
});

/**
 * One transaction per outermost `run`, in READ COMMITTED whatever the server default (the booking lock relies on it:
 * each statement after the lock sees what was committed before it was granted). A `run` inside the work of another
 * joins its transaction (the port's rule), tracked per async call path. `work` must use only the transaction it is
 * given: on PGlite, a query through the pool while a transaction is open waits for the one connection it holds.
 */
export const makeUnitOfWork = (db: Kysely<Database>): UnitOfWork => {
  const open = new AsyncLocalStorage<DomainTransaction>();
  return {
    async run(work) {
      const outer = open.getStore();
      if (outer) return work(outer);
      try {
        return await db
          .transaction()
          .setIsolationLevel('read committed')
          .execute(async (trx) => {
            const tx = makeTransaction(trx);
            return open.run(tx, () => work(tx));
          });
      } catch (err) {
        // begin and commit fail too (connection lost, deferred constraints), outside any repository method.
        throw toDomainError(err);
      }
    },
  };
};
