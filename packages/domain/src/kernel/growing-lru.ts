import { LRUCache } from 'lru-cache';

type Defined = NonNullable<unknown>;

export type GrowingLruOptions<K extends Defined, V extends Defined> = Omit<LRUCache.Options<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation'>;

/**
 * An LRU of at most `maxEntries` entries whose storage grows as it fills. Given `max`, lru-cache allocates its arrays
 * for every entry up front (about 900 KB for 20,000 entries with a ttl), which a cache that rarely fills keeps for the
 * life of the process and V8 marks at every full collection. Each entry counted as 1 against `maxSize` is the same
 * bound without the reservation.
 */
export const growingLru = <K extends Defined, V extends Defined>(maxEntries: number, options: GrowingLruOptions<K, V> = {}): LRUCache<K, V> =>
  new LRUCache<K, V>({ ...options, maxSize: maxEntries, sizeCalculation: () => 1 });
