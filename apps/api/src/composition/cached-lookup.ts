import { growingLru, type Clock } from '@garage/domain';

export interface CachedLookupOptions {
  /** How long an answer is trusted: a revoked or rotated key keeps working on an instance for at most this long. */
  ttlMs: number;
  clock: Clock;
  /** Answers that found something, least recently used evicted first. */
  maxEntries?: number;
  /** Answers that found nothing, in their own bound. */
  maxNegativeEntries?: number;
}

/**
 * A per-instance cache in front of a lookup by a string (an API key's hash, a garage's public slug) whose answer may
 * lag by `ttlMs` (docs/reference/contract.md §6 allows 5 s for a revocation to take effect everywhere). Misses are cached too, so
 * that a flood of bad keys costs one query per key per window, but in their own small LRU: random keys evict only
 * other random keys, never one that was found. Concurrent lookups of one key share a single query.
 */
export const cachedLookup = <T>(
  lookup: (key: string) => Promise<T | null>,
  { ttlMs, clock, maxEntries = 10_000, maxNegativeEntries = 1_000 }: CachedLookupOptions,
): ((key: string) => Promise<T | null>) => {
  // Expiry follows the injected clock (read on every check), so that tests move time.
  const timing = { ttl: ttlMs, ttlResolution: 0, perf: { now: () => clock.nowMs() } };
  const found = growingLru<string, { value: T }>(maxEntries, timing);
  const missing = growingLru<string, true>(maxNegativeEntries, timing);
  const inFlight = new Map<string, Promise<T | null>>();
  return async (key) => {
    const hit = found.get(key);
    if (hit) return hit.value;
    if (missing.has(key)) return null;
    const pending = inFlight.get(key);
    if (pending) return pending;
    const answer = lookup(key)
      .then((value) => {
        if (value === null) missing.set(key, true);
        else found.set(key, { value });
        return value;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, answer);
    return answer;
  };
};
