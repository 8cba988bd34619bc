import { LRUCache } from 'lru-cache';

export interface PageCacheOptions {
  /** Bytes of every garage's pages together, and how many pages. */
  maxBytes: number;
  maxEntries: number;
  /** The fraction of both bounds one garage may hold: its pages evict its own least recently used ones first. */
  garageShare: number;
  /** How long a page is kept, on `now`'s clock (read on every lookup). */
  ttlMs: number;
  now: () => number;
}

export interface PageCache<Page> {
  get(key: string): Page | undefined;
  set(garageId: string, key: string, page: Page, size: number): void;
  /**
   * Drops every page past its time and says how many. lru-cache drops a page it finds expired, or evicts one when
   * another comes, so without it the pages of a burst of reads stay in memory until later pages take their place.
   */
  purgeStale(): number;
}

/**
 * An LRU of pages bounded as a whole and per garage. Without the per-garage bound, one garage asking for ever new
 * pages (a public fleet query by `updatedSince` costs nothing to vary) would evict every other garage's pages; with
 * it, a garage past its share evicts its own pages only, and the others keep theirs while the whole stays within its
 * bounds.
 */
export const makePageCache = <Page extends object>({ maxBytes, maxEntries, garageShare, ttlMs, now }: PageCacheOptions): PageCache<Page> => {
  const timing = { ttl: ttlMs, ttlResolution: 0, perf: { now } };
  /** Each garage's pages (their keys and sizes); a page evicted here is evicted from `pages`. */
  const byGarage = new Map<string, LRUCache<string, number>>();
  // Every page counts at least the bytes the whole cache allows a page on average, so that the bytes bound the count
  // too: with `max` set, lru-cache would allocate room for every page up front, and each garage's account likewise.
  const leastPageSize = Math.max(1, Math.ceil(maxBytes / maxEntries));
  const pages = new LRUCache<string, { garageId: string; page: Page }>({
    maxSize: maxBytes,
    ...timing,
    // After the page is gone, whatever took it (eviction, expiry, deletion): the garage's account follows.
    disposeAfter: ({ garageId }, key, reason) => {
      if (reason === 'set') return;
      const own = byGarage.get(garageId);
      own?.delete(key);
      if (own?.size === 0) byGarage.delete(garageId);
    },
  });
  // A garage's account is bounded by bytes alone, as the whole is: room reserved for a quarter of 20,000 pages would be
  // some 100 KB in every garage's account, which an instance serving a thousand garages would pay a thousand times.
  // Its share of the bytes bounds how many pages it holds, however small they are.
  const accountOf = (garageId: string) => {
    let own = byGarage.get(garageId);
    if (!own) {
      own = new LRUCache<string, number>({
        maxSize: Math.max(1, Math.floor(maxBytes * garageShare)),
        sizeCalculation: (size) => size,
        disposeAfter: (_size, key, reason) => {
          if (reason === 'evict') pages.delete(key);
        },
      });
      byGarage.set(garageId, own);
    }
    return own;
  };
  return {
    get(key) {
      const entry = pages.get(key);
      // A page read counts as recent in its garage's account too.
      if (entry) byGarage.get(entry.garageId)?.get(key);
      return entry?.page;
    },
    set(garageId, key, page, size) {
      const own = accountOf(garageId);
      const bytes = Math.max(leastPageSize, size);
      own.set(key, bytes);
      if (!own.has(key)) {
        // Larger than the garage's whole share: not kept.
        pages.delete(key);
        if (own.size === 0) byGarage.delete(garageId);
        return;
      }
      pages.set(key, { garageId, page }, { size: bytes });
      if (!pages.has(key)) own.delete(key);
    },
    purgeStale() {
      const before = pages.size;
      pages.purgeStale();
      return before - pages.size;
    },
  };
};
