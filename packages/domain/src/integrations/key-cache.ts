import { LRUCache } from 'lru-cache';
import type { Integration } from './integration.js';
import type { Clock } from '../shared/clock.port.js';
import type { Awaitable } from '../shared/awaitable.js';

/** A lookup by key hash; a cached one answers a hit at once, without a promise (`cacheKeyLookup`). */
export type KeyLookup = (apiKeyHash: string) => Awaitable<Integration | null>;

export interface KeyCacheOptions {
  /** The revocation window: a revoked or rotated key keeps working on an instance for at most this long. */
  ttlMs: number;
  clock: Clock;
  /** Keys that were found, least recently used evicted first. */
  maxEntries?: number;
  /** Keys that were not found, in their own bound. */
  maxNegativeEntries?: number;
}

/**
 * Per-instance cache of key lookups (CONTRACT.md §6 allows 5 s for a revocation to take effect). Misses are cached
 * too, so that a flood of bad keys costs one query per key per window, but in their own small LRU: random keys
 * evict only other random keys, never a key that was found. Concurrent lookups of one key share a single query.
 * Other lookups by a string whose answer may lag by `ttlMs` use it too (a garage by its public slug). A cached answer is
 * returned as it is, not in a promise: the path of every authenticated request then takes no microtask for it.
 */
export const cacheKeyLookup = <T = Integration | null>(
  lookup: (key: string) => Promise<T>,
  { ttlMs, clock, maxEntries = 10_000, maxNegativeEntries = 1_000 }: KeyCacheOptions,
): ((key: string) => Awaitable<T>) => {
  // Expiry follows the injected clock (read on every check, not cached for a millisecond), so tests move time.
  const timing = { ttl: ttlMs, ttlResolution: 0, perf: { now: () => clock.nowMs() } };
  const found = new LRUCache<string, { value: T }>({ max: maxEntries, ...timing });
  const missing = new LRUCache<string, { value: T }>({ max: maxNegativeEntries, ...timing });
  const inFlight = new Map<string, Promise<T>>();
  return (key) => {
    const hit = found.get(key) ?? missing.get(key);
    if (hit) return hit.value;
    const pending = inFlight.get(key);
    if (pending) return pending;
    const value = lookup(key)
      .then((result) => {
        (result === null || result === undefined ? missing : found).set(key, { value: result });
        return result;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, value);
    return value;
  };
};
