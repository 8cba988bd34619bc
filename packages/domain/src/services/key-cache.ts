import type { Integration } from '../entities/integration.js';
import type { Clock } from '../ports/clock.port.js';

export type KeyLookup = (apiKeyHash: string) => Promise<Integration | null>;

/**
 * Per-instance cache of key lookups. The TTL is the revocation window: a revoked or rotated key keeps working on an
 * instance for at most `ttlMs` (CONTRACT.md §6 allows 5 s). Misses are cached too, so that a flood of bad keys costs
 * one query per key per window; the map is bounded so that random keys cannot grow it without limit. Other lookups by
 * a string whose answer may lag by `ttlMs` use it too (a garage by its public slug).
 */
export const cacheKeyLookup = <T = Integration | null>(
  lookup: (key: string) => Promise<T>,
  { ttlMs, clock, maxEntries = 10_000 }: { ttlMs: number; clock: Clock; maxEntries?: number },
): ((key: string) => Promise<T>) => {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return (hash) => {
    const now = clock.now().getTime();
    const hit = entries.get(hash);
    if (hit && now - hit.at < ttlMs) return hit.value;
    if (entries.size >= maxEntries) entries.clear();
    const value = lookup(hash);
    entries.set(hash, { at: now, value });
    value.catch(() => entries.delete(hash));
    return value;
  };
};
