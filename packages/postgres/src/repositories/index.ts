import type { Repositories, UnitOfWork } from '@garage/domain';
import type { Kysely } from 'kysely';
import { toDomainError, withErrorMapping } from '../errors.js';
import type { Database } from '../schema.js';
import type { Executor } from './executor.js';
import { makeGarageRepository } from './garage-repository.js';
import { makeIntegrationRepository } from './integration-repository.js';
import { makeLeadRepository } from './lead-repository.js';
import { makeProductRepository } from './product-repository.js';
import { makeQuoteRepository } from './quote-repository.js';
import { makeStockRepository } from './stock-repository.js';
import { makeVehicleRepository } from './vehicle-repository.js';
import { makeOutbox } from '../webhooks/outbox.js';

export type { Executor } from './executor.js';
export { makeAppointmentRepository } from './appointment-repository.js';
export { makeListVersionProbe } from './list-version-probe.js';

/** Every repository bound to `db` (the pool, or a transaction), with database errors mapped to domain errors. */
export const makeRepositories = (db: Executor): Repositories => ({
  garages: withErrorMapping(makeGarageRepository(db)),
  integrations: withErrorMapping(makeIntegrationRepository(db)),
  products: withErrorMapping(makeProductRepository(db)),
  stock: withErrorMapping(makeStockRepository(db)),
  vehicles: withErrorMapping(makeVehicleRepository(db)),
  quotes: withErrorMapping(makeQuoteRepository(db)),
  leads: withErrorMapping(makeLeadRepository(db)),
  outbox: withErrorMapping(makeOutbox(db)),
});

/**
 * One transaction per `run`. `work` must use only the repositories it is given: on PGlite, a query through the
 * pool while the transaction is open waits for the single connection that the transaction holds.
 */
export const makeUnitOfWork = (db: Kysely<Database>): UnitOfWork => ({
  async run(work) {
    try {
      return await db.transaction().execute((trx) => work(makeRepositories(trx)));
    } catch (err) {
      // begin and commit fail too (connection lost, deferred constraints), outside any repository method.
      throw toDomainError(err);
    }
  },
});
