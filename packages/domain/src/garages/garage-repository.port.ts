import type { BookingSettings, Closure, Garage } from './garage.js';

export interface NewGarage {
  slug: string;
  name: string;
  currency: string;
  booking: BookingSettings;
}

export interface GarageRepository {
  /** Throws `DUPLICATE` when the slug is taken. */
  create(input: NewGarage): Promise<Garage>;
  findBySlug(slug: string): Promise<Garage | null>;
  findById(id: string): Promise<Garage | null>;
  addClosure(input: { garageId: string; from: string; to: string; reason: string | null }): Promise<Closure>;
  /** Closures overlapping the inclusive local-date range `[from, to]`. */
  listClosures(garageId: string, from: string, to: string): Promise<Closure[]>;
  /**
   * `findById` and `listClosures` in one read, with the store's clock when it read them (`readAt`, to the
   * millisecond): a booking needs the garage and its closures before it writes, and stamps its appointment with
   * `readAt`, as the writes of a transaction carry the time it began.
   */
  findWithClosures(id: string, from: string, to: string): Promise<{ garage: Garage; closures: Closure[]; readAt: Date } | null>;
}
