import t from 'tap';
import { makePageCache } from '../src/http/page-cache.js';
import { LIST_CACHE_BUDGET } from '../src/plugins/list-cache.js';

/** A page of 100 products as the API sends it: about 40 KB. */
const PAGE_BYTES = 40_000;
const CATALOG_PAGES = 50;

const cacheOfTheApi = () => {
  let now = 0;
  const cache = makePageCache<{ page: string }>({ ...LIST_CACHE_BUDGET, ttlMs: 3000, now: () => now });
  return { cache, tick: () => (now += 1) };
};

const pagesOf = (garage: string, count: number) => Array.from({ length: count }, (_, i) => `${garage} page ${i}`);

t.test("a garage's whole catalog, read page after page again and again, stays in the cache", async (t) => {
  const { cache, tick } = cacheOfTheApi();
  const catalog = pagesOf('garage-a', CATALOG_PAGES);
  for (const key of catalog) cache.set('garage-a', key, { page: key }, PAGE_BYTES);
  let found = 0;
  for (let pass = 0; pass < 3; pass += 1) {
    for (const key of catalog) {
      tick();
      if (cache.get(key)) found += 1;
      else cache.set('garage-a', key, { page: key }, PAGE_BYTES);
    }
  }
  t.equal(found, 3 * CATALOG_PAGES, 'every page of every later pass is served from the cache');
});

t.test('a garage asking for ever new pages evicts only its own', async (t) => {
  const { cache, tick } = cacheOfTheApi();
  const others = ['garage-b', 'garage-c', 'garage-d'].flatMap((garage) => pagesOf(garage, CATALOG_PAGES).map((key) => ({ garage, key })));
  for (const { garage, key } of others) cache.set(garage, key, { page: key }, PAGE_BYTES);
  for (const key of pagesOf('flood', 2_000)) {
    tick();
    cache.set('flood', key, { page: key }, PAGE_BYTES);
  }
  t.ok(others.every(({ key }) => cache.get(key)), "three other garages' catalogs are all still there");
  const kept = pagesOf('flood', 2_000).filter((key) => cache.get(key)).length;
  t.ok(kept * PAGE_BYTES <= LIST_CACHE_BUDGET.maxBytes * LIST_CACHE_BUDGET.garageShare, `the flooding garage holds its share at most (${kept} pages)`);
});

t.test('a garage filling its share with the smallest pages still holds its share of the pages at most', async (t) => {
  const { cache } = cacheOfTheApi();
  // A page known by its ETag alone (a 304 at that version) takes a hundred bytes or so.
  const small = 100;
  const others = ['garage-b', 'garage-c', 'garage-d'].flatMap((garage) => pagesOf(garage, CATALOG_PAGES).map((key) => ({ garage, key })));
  for (const { garage, key } of others) cache.set(garage, key, { page: key }, small);
  const flood = pagesOf('flood', LIST_CACHE_BUDGET.maxEntries);
  for (const key of flood) cache.set('flood', key, { page: key }, small);
  t.ok(others.every(({ key }) => cache.get(key)), "three other garages' pages are all still there");
  const kept = flood.filter((key) => cache.get(key)).length;
  t.ok(kept <= LIST_CACHE_BUDGET.maxEntries * LIST_CACHE_BUDGET.garageShare, `the flooding garage holds its share of the pages at most (${kept})`);
  t.ok(kept >= LIST_CACHE_BUDGET.maxEntries * LIST_CACHE_BUDGET.garageShare * 0.99, `and that much (${kept})`);
});

t.test("a garage's account costs memory for the pages it holds, not for the pages it may hold", async (t) => {
  const { cache } = cacheOfTheApi();
  const garages = 1_000;
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < garages; i += 1) cache.set(`garage-${i}`, `garage-${i} page 0`, { page: 'p' }, 1_000);
  const perGarage = (process.memoryUsage().heapUsed - before) / garages;
  // Room for a quarter of the cache's entries, allocated in each account, would take over 100 KB a garage.
  t.ok(perGarage < 10_000, `${Math.round(perGarage)} bytes of heap per garage holding one page`);
  t.ok(cache.get('garage-0 page 0') && cache.get(`garage-${garages - 1} page 0`), 'every garage keeps its page');
});

t.test('the whole cache holds its number of pages at most, however small they are', async (t) => {
  const { cache } = cacheOfTheApi();
  const garages = Array.from({ length: 10 }, (_, i) => `garage-${i}`);
  const keys = garages.flatMap((garage) => pagesOf(garage, LIST_CACHE_BUDGET.maxEntries / 4).map((key) => ({ garage, key })));
  for (const { garage, key } of keys) cache.set(garage, key, { page: key }, 100);
  const kept = keys.filter(({ key }) => cache.get(key)).length;
  t.ok(kept <= LIST_CACHE_BUDGET.maxEntries, `${kept} pages of ${keys.length} kept`);
  t.ok(kept >= LIST_CACHE_BUDGET.maxEntries * 0.99, 'and about that many');
});

t.test('expired pages are dropped when purged, not only when later pages push them out', async (t) => {
  const { cache, tick } = cacheOfTheApi();
  // lru-cache reads a start at 0 as no start at all.
  tick();
  const catalog = pagesOf('garage-a', CATALOG_PAGES);
  for (const key of catalog) cache.set('garage-a', key, { page: key }, PAGE_BYTES);
  t.equal(cache.purgeStale(), 0, 'nothing is dropped within its time');
  for (let ms = 0; ms <= 3000; ms += 1) tick();
  const fresh = pagesOf('garage-b', 2);
  for (const key of fresh) cache.set('garage-b', key, { page: key }, PAGE_BYTES);
  t.equal(cache.purgeStale(), CATALOG_PAGES, 'every expired page is dropped at once');
  t.equal(cache.purgeStale(), 0);
  t.ok(fresh.every((key) => cache.get(key)), 'pages within their time stay');
});
