import type { CustomerRecords, ErasureCounts } from './customer-records.js';

/** A stored webhook event about a person's appointment, lead or quote. */
export interface StoredEventData {
  id: string;
  data: Record<string, unknown>;
}

/** Reads what a garage holds about a person (docs/operators/personal-data.md). */
export interface PersonalDataReader {
  /**
   * The garage's appointments and leads that give `email` (without regard to case), and its quotes whose customer
   * name is one of `names` (compared without case or surrounding spaces), oldest first.
   */
  findByEmail(garageId: string, email: string): Promise<Omit<CustomerRecords, 'quotes'>>;
  findQuotesNamed(garageId: string, names: readonly string[]): Promise<CustomerRecords['quotes']>;
}

/** Rewrites what a garage holds about a person; exists only inside `PersonalDataUnitOfWork.run`. */
export interface PersonalDataEraser extends PersonalDataReader {
  /**
   * Replaces the customer's name, email, phone and free text (notes, cancellation reason; a lead's message; a
   * quote's signer name, comment and refusal reason) of these rows with `"[erased]"`, leaving absent values absent and
   * the rows' change times as they were: an erasure is no change a connector syncs. Returns how many rows it rewrote.
   */
  eraseAppointments(ids: readonly string[]): Promise<number>;
  eraseLeads(ids: readonly string[]): Promise<number>;
  eraseQuotes(ids: readonly string[]): Promise<number>;
  /** The garage's stored webhook events whose subject (`data.id`) is one of `subjectIds`. */
  eventsAbout(garageId: string, subjectIds: readonly string[]): Promise<StoredEventData[]>;
  replaceEventData(eventId: string, data: Record<string, unknown>): Promise<void>;
  /** Records that an erasure happened: when, where, how many rows; never whom. */
  recordErasure(erasure: { garageId: string; at: Date; counts: ErasureCounts }): Promise<void>;
}

/** Runs an erasure in one transaction: all of the person's rows are rewritten, or none. */
export interface PersonalDataUnitOfWork {
  run<T>(work: (tx: PersonalDataEraser) => Promise<T>): Promise<T>;
}
