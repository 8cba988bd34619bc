import { isPromise, systemClock, whenReady, type Awaitable, type Clock, type ListName, type ListVersionProbe } from '@garage/domain';
import DataLoader from 'dataloader';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { runThenDone } from '../http/awaitable-hook.js';
import { matches, sendNotModified } from './http-conventions.js';
import { versionOf as apiVersionOf } from './api-versions.js';

/**
 * The longest a cached page is trusted without being read again. The version probe sees every ordinary write at once;
 * this bounds what it cannot see (a deleted row, a vehicle write committed with a timestamp older than the newest
 * row), well inside the 5 s in which a change must reach every reader.
 */
export const PAGE_CACHE_MAX_AGE_MS = 3000;
/**
 * Per instance: some 250 pages of 100 products, the first pages of hundreds of garages. Kept small so that the API
 * stays within its memory budget (issue 18: RSS ≤ 200 MB, which a full 16 MiB cache alone took ~20 MiB of); pages
 * read once are not kept at all (see `admitted`).
 */
const MAX_BYTES = 8 * 1024 * 1024;
const MAX_ENTRIES = 20_000;
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
 * How long one instance shares a probed version among its requests (CONTRACT.md §6 allows 5 s for a change to reach
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
  if (shareMs <= 0) return (garageId: string): Awaitable<string> => loader.load(garageId);
  const recent = new LRUCache<string, string>({ max: MAX_ENTRIES, ttl: shareMs, ttlResolution: 0, perf: timerOf(clock) });
  // A shared version is returned as it is, not in a promise: the cached page is then sent without a microtask.
  return (garageId: string): Awaitable<string> =>
    recent.get(garageId) ??
    loader.load(garageId).then((version) => {
      recent.set(garageId, version);
      return version;
    });
};

/**
 * The garage, the list and every parameter that shapes the page. Most queries (`?limit=100&cursor=…`) cannot name an
 * access parameter: without a percent escape and without either name, the query string as sent is the key, with no
 * parse, sort or encoding per request (issue 18). Others are keyed by their parsed parameters less the access ones, in
 * a fixed order. The two kinds of key start differently, so that one never stands for the other.
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
 * version, so a write is seen within a second. Pages are keyed by garage: one garage never gets another's page.
 */
export default fp(
  async (app: FastifyInstance, { clock = systemClock, versionShareMs = LIST_VERSION_SHARE_MS }: ListCacheOptions) => {
    const probe = app.listVersionProbe;
    // A page's bytes are kept only from its second read within a page's lifetime on (a doorkeeper, as in TinyLFU). A
    // cursor walk reads each page once, and a page kept 3 s that nobody asks for again only holds memory: while a
    // connector walked a large catalog, such pages filled the cache and grew the process by some 16 MiB (issue 18).
    const readBefore = new LRUCache<string, true>({ max: MAX_ENTRIES, ttl: PAGE_CACHE_MAX_AGE_MS, ttlResolution: 0, perf: timerOf(clock) });
    const pages = new LRUCache<string, CachedPage>({
      max: MAX_ENTRIES,
      maxSize: MAX_BYTES,
      sizeCalculation: (page, key) => (page.body?.length ?? 0) + page.etag.length + key.length,
      ttl: PAGE_CACHE_MAX_AGE_MS,
      // Read the clock on every lookup rather than reuse a reading for a millisecond: the age bound is exact.
      ttlResolution: 0,
      perf: timerOf(clock),
    });
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

    /**
     * Answers from the cache, or marks the request as the read of its page. Runs right after the route's access hook,
     * before validation: a page is kept under the query as the client wrote it, so a page found was sent before for
     * these very parameters, which then passed validation; a request that does not is refused as usual, and what it
     * sends is not kept. Validation and the preHandler stage stay off the path of a cached page (issue 18).
     */
    const answerOrRead = (list: ListName) => (request: FastifyRequest, reply: FastifyReply): Awaitable<void> => {
      const garageId = request.garageId;
      if (garageId === null) return;
      // Per API version too: a version change may render the same page differently.
      const key = `${apiVersionOf(request)} ${keyOf(list, garageId, request.url, request.query)}`;
      return whenReady(versionOf[list](garageId), (version) => answerAt(request, reply, key, version));
    };
    const answerAt = (request: FastifyRequest, reply: FastifyReply, key: string, version: string): Awaitable<void> => {
      const ifNoneMatch = request.headers['if-none-match'];
      const page = pages.get(key);
      if (answers(page, version, ifNoneMatch)) return send(reply, page, ifNoneMatch);
      const read = reading.get(key);
      if (read?.version !== version) return startRead(request, key, version);
      return read.page.then((sent) => (answers(sent, version, ifNoneMatch) ? send(reply, sent, ifNoneMatch) : startRead(request, key, version)));
    };
    const send = (reply: FastifyReply, page: CachedPage, ifNoneMatch: string | undefined) => {
      if (notModified(page, ifNoneMatch)) return void sendNotModified(reply, page.etag);
      // With its ETag set, http-conventions does not hash the body again.
      reply.header('etag', page.etag).type('application/json; charset=utf-8').send(page.body);
    };
    const startRead = (request: FastifyRequest, key: string, version: string) => {
      let settle: (page: CachedPage | null) => void = () => {};
      const admitted = readBefore.has(key);
      readBefore.set(key, true);
      const read: PageRead = { key, version, admitted, page: new Promise((resolve) => (settle = resolve)), settle };
      reading.set(key, read);
      request.pageToCache = read;
    };
    // A list route has one access hook (`requireKey`, `fleetAccess`), which sets the garage; the cache runs right after
    // it, in the same hook: one hook fewer on every read. A route without exactly one such hook (a callback hook, or one
    // that returns its promise as Fastify requires of a hook without `done`) would never be answered from the cache: it
    // fails at start.
    app.addHook('onRoute', (route) => {
      const list = route.config?.listCache;
      if (list === undefined) return;
      const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
      const [access] = own;
      if (own.length !== 1 || access === undefined) {
        throw new Error(`list route ${route.method} ${route.url} needs exactly one access hook`);
      }
      const accessHook = access as unknown as (request: FastifyRequest, reply: FastifyReply, done?: HookHandlerDoneFunction) => unknown;
      const cached = answerOrRead(list);
      route.onRequest = [
        function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
          const next = (err?: Error) => {
            // As Fastify would: an error, or a hook that answered, ends the stage.
            if (err || reply.sent) return done(err);
            runThenDone(() => cached(request, reply), done);
          };
          if (accessHook.length === 3) return void accessHook.call(this, request, reply, next);
          const result = accessHook.call(this, request, reply);
          if (!isPromise(result)) return done(new Error(`the access hook of ${route.url} returned no promise`));
          result.then(() => next(), next);
        },
      ];
    });

    // Registered after http-conventions: the page's ETag is set and, for a 304, the body is already gone. A 304 still
    // teaches the page's ETag, which is all the next conditional request needs.
    app.addHook('onSend', (request, reply, payload, done) => {
      const read = request.pageToCache;
      // Routes of plugins registered before this one (the docs page) have no such property at all.
      if (!read) return done(null, payload);
      const etag = reply.getHeader('etag');
      let page: CachedPage | null = null;
      // http-conventions hands on the body as the bytes it hashed: kept as they are, never copied. A page read for the
      // first time still answers the requests that waited for it; of it, the cache keeps the ETag alone.
      if (typeof etag === 'string' && reply.statusCode === 200 && Buffer.isBuffer(payload)) {
        page = { version: read.version, etag, body: payload };
      } else if (typeof etag === 'string' && reply.statusCode === 304) {
        page = { version: read.version, etag, body: null };
      }
      if (page) pages.set(read.key, read.admitted ? page : { ...page, body: null });
      finish(read, page);
      done(null, payload);
    });
    // Whatever became of the read (an error, a client gone), those waiting for it must not wait for ever.
    const release = (request: FastifyRequest) => {
      if (request.pageToCache) finish(request.pageToCache, null);
    };
    app.addHook('onResponse', (request, _reply, done) => {
      release(request);
      done();
    });
    app.addHook('onRequestAbort', (request, done) => {
      release(request);
      done();
    });
  },
  { name: 'list-cache', dependencies: ['http-conventions', 'use-cases', 'api-versions'] },
);
