import { growingLru, systemClock, type Clock, type ListName, type ListVersionProbe } from '@garage/domain';
import DataLoader from 'dataloader';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { makePageCache } from '../http/page-cache.js';
import { matches, sendNotModified } from './http-conventions.js';
import { versionOf as apiVersionOf } from './api-versions.js';

/**
 * The longest a cached page is trusted without being read again. The version probe sees every ordinary write at once;
 * this bounds what it cannot see (a deleted row, a vehicle write committed with a timestamp older than the newest
 * row), well inside the 5 s in which a change must reach every reader.
 */
export const PAGE_CACHE_MAX_AGE_MS = 3000;
/**
 * What one instance keeps of list pages, in bytes and in pages, and the fraction of both that one garage may hold: a
 * garage flooding the cache with new queries evicts only its own pages, and every other garage keeps three quarters of
 * the cache. A garage's share, 4 MiB, holds some 100 pages of 100 products: a connector's full sync of a typical
 * catalog (50 pages) stays whole while it is read again, where an eighth of 8 MiB held 25 such pages and a walk over 50
 * evicted each page before it was asked for again. The pages' bytes live outside V8's heap; the 16 MiB they may take
 * is part of the memory docs/operators/performance.md budgets for the API. Pages read once are not kept at all (see
 * `admitted`).
 */
export const LIST_CACHE_BUDGET = { maxBytes: 16 * 1024 * 1024, maxEntries: 20_000, garageShare: 1 / 4 } as const;
/** Query parameters that say who is asking, not what: the garage they resolve to is part of the key. */
const ACCESS_PARAMETERS = new Set(['apiKey', 'garageSlug']);

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the composition root. */
    listVersionProbe: ListVersionProbe;
  }
  interface FastifyContextConfig {
    /** 200 responses of this route are pages of `listCache`, which the instance may keep (see list-cache.ts). */
    listCache?: ListName;
  }
  interface FastifyRequest {
    /** Set on a cache miss: the page this request reads, which others may be waiting for. */
    pageToCache: PageRead | null;
  }
}

/** A page being read by one request, at the version probed before the read. */
interface PageRead {
  garageId: string;
  key: string;
  version: string;
  /** The page was read before, within a page's maximum age: its bytes are worth keeping. */
  admitted: boolean;
  /** What that request sent, once it is sent; null if it sent no page (an error, for example). */
  page: Promise<CachedPage | null>;
  settle(page: CachedPage | null): void;
}

interface CachedPage {
  version: string;
  etag: string;
  /** null when only a 304 was sent at this version: the ETag is known, the bytes are not. */
  body: Buffer | null;
}

const notModified = (page: CachedPage, ifNoneMatch: string | undefined) => ifNoneMatch !== undefined && matches(ifNoneMatch, page.etag);

/** A page at `version` answers a request if its bytes are kept, or if the request only needs its ETag (a 304). */
const answers = (page: CachedPage | null | undefined, version: string, ifNoneMatch: string | undefined): page is CachedPage =>
  page?.version === version && (page.body !== null || notModified(page, ifNoneMatch));

/** The LRU caches' time source: the clock's milliseconds, no Date made per lookup. */
const timerOf = (clock: Clock) => ({ now: () => clock.nowMs() });

/**
 * How long one instance shares a probed version among its requests (docs/reference/contract.md §6 allows 5 s for a change to reach
 * every reader): a busy list costs one probe a second per garage instead of one per request. With the page's own
 * maximum age the staleness stays at most 4 s. Cursor walks stay whole: keyset positions are `(updatedAt, id)`, a
 * changed item moves to the end of the list, so a walk that mixes a page from just before a write with pages read
 * after it still meets every item.
 */
export const LIST_VERSION_SHARE_MS = 1000;

/**
 * The current version of one list, by garage. Requests within `shareMs` of a probe reuse its answer; otherwise they
 * share queries: while one is out, the garages asked for meanwhile wait and go together in the next, so a request
 * never joins a query sent before it arrived.
 */
const versionsOf = (probe: ListVersionProbe, list: ListName, shareMs: number, clock: Clock) => {
  let inFlight: Promise<unknown> = Promise.resolve();
  const loader = new DataLoader<string, string>(
    (garageIds) => {
      const batch = probe.versions(list, garageIds).then((versions) => garageIds.map((id) => versions.get(id) ?? 'none'));
      inFlight = batch.catch(() => undefined);
      return batch;
    },
    { cache: false, maxBatchSize: 500, batchScheduleFn: (dispatch) => void inFlight.then(dispatch) },
  );
  if (shareMs <= 0) return (garageId: string): Promise<string> => loader.load(garageId);
  const recent = growingLru<string, string>(LIST_CACHE_BUDGET.maxEntries, { ttl: shareMs, ttlResolution: 0, perf: timerOf(clock) });
  return async (garageId: string): Promise<string> => {
    const shared = recent.get(garageId);
    if (shared !== undefined) return shared;
    const version = await loader.load(garageId);
    recent.set(garageId, version);
    return version;
  };
};

/**
 * The garage, the list and every parameter that shapes the page. Most queries (`?limit=100&cursor=…`) cannot name an
 * access parameter: without a percent escape and without either name, the query string as sent is the key. Others
 * are keyed by their parsed parameters less the access ones, in a fixed order. The two kinds of key start differently, so that one never stands for the other.
 */
const keyOf = (list: ListName, garageId: string, url: string, query: unknown) => {
  const start = url.indexOf('?');
  const raw = start === -1 ? '' : url.slice(start + 1);
  if (!raw.includes('%') && !raw.includes('apiKey') && !raw.includes('garageSlug')) return `sent\n${list}\n${garageId}\n${raw}`;
  const params = Object.entries((query ?? {}) as Record<string, unknown>)
    .filter(([name]) => !ACCESS_PARAMETERS.has(name))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  return `parsed\n${list}\n${garageId}\n${params.join('&')}`;
};

export interface ListCacheOptions {
  /** Tests move time to check the maximum age. */
  clock?: Clock;
  /** How long a probed version is shared (`LIST_VERSION_SHARE_MS`); tests that write then read at once pass 0. */
  versionShareMs?: number;
}

/**
 * A per-instance cache of list pages (the exact bytes and their ETag), so that a connector polling an unchanged list
 * costs one small indexed query instead of reading, serialising and hashing the page again; a matching
 * `If-None-Match` is then answered 304 from the cached ETag. Every request first learns the list's version for its
 * garage (probed at most once a second per instance, batched), and a page is served only if it was read at that same
 * version, so a write is seen within a second. Pages are keyed by garage: one garage never gets another's page, and
 * each garage holds at most its share of the cache (`LIST_CACHE_BUDGET`).
 */
export default fp(
  async (app: FastifyInstance, { clock = systemClock, versionShareMs = LIST_VERSION_SHARE_MS }: ListCacheOptions) => {
    const probe = app.listVersionProbe;
    // A page's bytes are kept only from its second read within a page's lifetime on (a doorkeeper, as in TinyLFU). A
    // cursor walk reads each page once, and a page kept 3 s that nobody asks for again only holds memory: while a
    // connector walked a large catalog, such pages filled the cache and grew the process by some 16 MiB.
    const readBefore = growingLru<string, true>(LIST_CACHE_BUDGET.maxEntries, { ttl: PAGE_CACHE_MAX_AGE_MS, ttlResolution: 0, perf: timerOf(clock) });
    const pages = makePageCache<CachedPage>({
      ...LIST_CACHE_BUDGET,
      ttlMs: PAGE_CACHE_MAX_AGE_MS,
      now: () => clock.nowMs(),
    });
    // Expired pages go within a page's lifetime, not when later pages push them out: their bytes (up to the budget's
    // 16 MiB) are memory that nothing will read again, and an instance past a burst of list reads should give it back.
    const purge = setInterval(() => {
      pages.purgeStale();
      readBefore.purgeStale();
    }, PAGE_CACHE_MAX_AGE_MS).unref();
    app.addHook('onClose', async () => clearInterval(purge));
    const versionOf = {
      products: versionsOf(probe, 'products', versionShareMs, clock),
      stock: versionsOf(probe, 'stock', versionShareMs, clock),
      vehicles: versionsOf(probe, 'vehicles', versionShareMs, clock),
    } satisfies Record<ListName, unknown>;

    /** Pages being read right now, by key: a request for the same page at the same version waits for that read. */
    const reading = new Map<string, PageRead>();
    const finish = (read: PageRead, page: CachedPage | null) => {
      read.settle(page);
      if (reading.get(read.key) === read) reading.delete(read.key);
    };

    app.decorateRequest('pageToCache', null);

    const send = (reply: FastifyReply, page: CachedPage, ifNoneMatch: string | undefined) => {
      if (notModified(page, ifNoneMatch)) return sendNotModified(reply, page.etag);
      // With its ETag set, http-conventions does not hash the body again.
      return reply.header('etag', page.etag).type('application/json; charset=utf-8').send(page.body);
    };
    const startRead = (request: FastifyRequest, garageId: string, key: string, version: string) => {
      let settle: (page: CachedPage | null) => void = () => {};
      const admitted = readBefore.has(key);
      readBefore.set(key, true);
      const read: PageRead = { garageId, key, version, admitted, page: new Promise((resolve) => (settle = resolve)), settle };
      reading.set(key, read);
      request.pageToCache = read;
    };

    /**
     * Answers a list route's request from the cache, or marks it as the read of its page. A preValidation hook: it
     * runs after the route's access hook (onRequest), which sets the garage and refuses what it must, and before
     * validation. A page is kept under the query as the client wrote it, so a page found was sent before for these
     * very parameters, which then passed validation; a request that does not is refused as usual, and what it sends is
     * not kept.
     */
    app.addHook('preValidation', async (request, reply) => {
      const list = request.routeOptions.config.listCache;
      const garageId = request.garageId;
      if (list === undefined || garageId === null) return;
      // Per API version too: a version change may render the same page differently.
      const key = `${apiVersionOf(request)} ${keyOf(list, garageId, request.url, request.query)}`;
      const version = await versionOf[list](garageId);
      const ifNoneMatch = request.headers['if-none-match'];
      const page = pages.get(key);
      if (answers(page, version, ifNoneMatch)) return send(reply, page, ifNoneMatch);
      const read = reading.get(key);
      if (read?.version === version) {
        const sent = await read.page;
        if (answers(sent, version, ifNoneMatch)) return send(reply, sent, ifNoneMatch);
      }
      startRead(request, garageId, key, version);
    });

    // Registered after http-conventions: the page's ETag is set and, for a 304, the body is already gone. A 304 still
    // teaches the page's ETag, which is all the next conditional request needs.
    app.addHook('onSend', async (request, reply, payload) => {
      const read = request.pageToCache;
      // Routes of plugins registered before this one (the docs page) have no such property at all.
      if (!read) return payload;
      const etag = reply.getHeader('etag');
      let page: CachedPage | null = null;
      // http-conventions hands on the body as the bytes it hashed: kept as they are, never copied. A page read for the
      // first time still answers the requests that waited for it; of it, the cache keeps the ETag alone.
      if (typeof etag === 'string' && reply.statusCode === 200 && Buffer.isBuffer(payload)) {
        page = { version: read.version, etag, body: payload };
      } else if (typeof etag === 'string' && reply.statusCode === 304) {
        page = { version: read.version, etag, body: null };
      }
      if (page) {
        const kept = read.admitted ? page : { ...page, body: null };
        pages.set(read.garageId, read.key, kept, (kept.body?.length ?? 0) + kept.etag.length + read.key.length);
      }
      finish(read, page);
      return payload;
    });
    // Whatever became of the read (an error, a client gone), those waiting for it must not wait for ever.
    const release = async (request: FastifyRequest) => {
      if (request.pageToCache) finish(request.pageToCache, null);
    };
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', release);
  },
  { name: 'list-cache', dependencies: ['http-conventions', 'use-cases', 'api-versions'] },
);
