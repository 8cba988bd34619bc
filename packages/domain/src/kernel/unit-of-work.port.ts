import type { AppointmentReader, AppointmentRepository } from '../booking/appointment-repository.port.js';
import type { AvailabilityReader } from '../booking/availability-reader.port.js';
import type { BookingLocks } from '../booking/booking-lock.port.js';
import type { BookingWriter } from '../booking/booking-writer.port.js';
import type { IdempotencyStore } from '../idempotency/idempotency-store.port.js';
import type { ProductReader, ProductRepository, StockReader, StockRepository } from '../catalog/catalog-repository.port.js';
import type { GarageRepository } from '../garages/garage-repository.port.js';
import type { IntegrationRepository } from '../integrations/integration-repository.port.js';
import type { LeadRepository } from '../leads/lead-repository.port.js';
import type { Outbox } from '../webhooks/outbox.port.js';
import type { SandboxStore } from '../sandbox/sandbox-store.port.js';
import type { QuoteReader, QuoteRepository } from '../quotes/quote-repository.port.js';
import type { VehicleReader, VehicleRepository } from '../fleet/vehicle-repository.port.js';

/**
 * What may run outside a transaction: reads, and writes that are one statement. Later features add their ports here.
 * Writes that span statements, locks and events are not here: they exist only on `Transaction`.
 */
export interface Repositories {
  garages: GarageRepository;
  integrations: IntegrationRepository;
  products: ProductReader;
  stock: StockReader;
  vehicles: VehicleReader;
  quotes: QuoteReader;
  appointments: AppointmentReader;
  availability: AvailabilityReader;
  /** A booking's lock, capacity check and writes, atomic in one step. */
  bookings: BookingWriter;
}

/** Everything one unit of work may touch; it only exists inside `UnitOfWork.run`, and only for its duration. */
export interface Transaction extends Repositories {
  products: ProductRepository;
  stock: StockRepository;
  vehicles: VehicleRepository;
  quotes: QuoteRepository;
  appointments: AppointmentRepository;
  leads: LeadRepository;
  /** Webhook events, committed with the change that caused them. */
  outbox: Outbox;
  bookingLocks: BookingLocks;
  /** Sandboxes made and reset, each copy with the garage it makes. */
  sandboxes: SandboxStore;
  /** The Idempotency-Key record of the request, committed with the change it records. */
  idempotencyRecords: Pick<IdempotencyStore, 'complete'>;
}

/**
 * Opens transactions: the caller states what is atomic, repositories never open one themselves. `run` commits when
 * `work` resolves and rolls back when it rejects, and resolves or rejects as `work` does.
 *
 * Every `run` opens a transaction of its own; nothing joins one implicitly. Work that must commit with something
 * else receives the transaction it runs in (see `Work` and `TransactionalUseCase`): that is how a request's
 * Idempotency-Key record commits with the booking it records, the booking knowing nothing of requests.
 */
export interface UnitOfWork {
  run<T>(work: Work<T>): Promise<T>;
}

/** A state change as a function of the transaction it runs in, which its caller opened. */
export type Work<T> = (tx: Transaction) => Promise<T>;
