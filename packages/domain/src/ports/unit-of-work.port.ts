import type { ProductRepository, StockRepository } from './catalog-repository.port.js';
import type { GarageRepository } from './garage-repository.port.js';
import type { IntegrationRepository } from './integration-repository.port.js';
import type { LeadRepository } from './lead-repository.port.js';
import type { Outbox } from './outbox.port.js';
import type { QuoteRepository } from './quote-repository.port.js';
import type { VehicleRepository } from './vehicle-repository.port.js';

/** Every repository, bound to one connection or transaction. Later features add their ports here. */
export interface Repositories {
  garages: GarageRepository;
  integrations: IntegrationRepository;
  products: ProductRepository;
  stock: StockRepository;
  vehicles: VehicleRepository;
  quotes: QuoteRepository;
  leads: LeadRepository;
  /** Webhook events, written in the same transaction as the change that caused them. */
  outbox: Outbox;
}

/** Runs `work` atomically: every write through the given repositories commits together or not at all. */
export interface UnitOfWork {
  run<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
}
