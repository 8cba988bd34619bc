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
   * `findById` and `listClosures` in one read: a booking needs both before it takes its lock, and each read is one more
   * round trip of its open transaction.
   */
  findWithClosures(id: string, from: string, to: string): Promise<{ garage: Garage; closures: Closure[] } | null>;
}
