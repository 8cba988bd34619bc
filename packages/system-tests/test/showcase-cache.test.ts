import { createTestDatabase } from '@garage/postgres/testing';
import t, { type Test } from 'tap';
import { adminFor, ENCRYPTION_KEY, FIRST_VERSION, seedGarage, vehicle } from '@garage/composition/testing';
import { startShowcaseCache } from './support/nginx.js';
import { freePort, http, sleep, startApi, type HttpResponse } from './support/processes.js';

/**
 * The public showcase behind a real shared cache: nginx on loopback, running deploy/nginx/showcase-cache.conf, in
 * front of the API as operators start it. Nothing in nginx's configuration decides what is stored: the API's own
 * `Cache-Control`, `Vary` and ETag do, and nginx honours them as any shared cache would. What reached the API is read
 * from its own request counter (`http_requests_total` by route and status), which counts as each answer is sent.
 */

const ORIGIN = 'https://garage-website.example';
const LIST_ROUTE = '/api/public/fleet';
const ITEM_ROUTE = '/api/public/fleet/:vehicleId';

/** A garage's data, the API on it (with `env`) and nginx in front. */
const showcase = async (t: Test, env: Record<string, string> = {}) => {
  const db = await createTestDatabase('showcase');
  t.teardown(() => db.drop());
  const admin = adminFor(db.handle.db);
  const garage = await seedGarage(admin);
  const metricsPort = await freePort();
  const api = await startApi(t, { DATABASE_URL: db.url, ENCRYPTION_KEY, METRICS_PORT: String(metricsPort), ...env });
  const nginx = await startShowcaseCache(t, { apiPort: api.port });
  /** How many GETs of `route` the API has answered with `status`. */
  const answered = async (route: string, status: number) => {
    const { body } = await http(`http://127.0.0.1:${metricsPort}/metrics`);
    const line = body
      .split('\n')
      .find((l) => l.startsWith('http_requests_total{') && l.includes('method="GET"') && l.includes(`route="${route}"`) && l.includes(`status_code="${status}"`));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  /** The supported versions, from the API's refusal of one it does not have. */
  const versions = async () =>
    (await http(`http://127.0.0.1:${api.port}${LIST_ROUTE}`, { headers: { 'garage-version': '1999-01-01' } }))
      .json<{ details: { message: string }[] }>()
      .details.map((d) => d.message);
  return { admin, garage, nginx, answered, versions };
};

const cacheStatus = (res: HttpResponse) => res.headers['x-cache-status'];
const references = (res: HttpResponse) => res.json<{ data: { reference: string }[] }>().data.map((v) => v.reference);

t.test('public fleet reads are served by the shared cache for their max-age', async (t) => {
  const { admin, garage, nginx, answered, versions } = await showcase(t, { PUBLIC_CACHE_MAX_AGE_SECONDS: '30' });
  const list = `${LIST_ROUTE}?garageSlug=${garage.slug}`;
  const item = `${LIST_ROUTE}/${garage.vehicleIds['V-1']}?garageSlug=${garage.slug}`;

  for (const [url, route] of [
    [list, LIST_ROUTE],
    [item, ITEM_ROUTE],
  ] as const) {
    const before = await answered(route, 200);
    const first = await nginx.get(url);
    t.equal(first.status, 200, url);
    t.equal(cacheStatus(first), 'MISS', 'the first read fills the cache');
    t.equal(first.headers['cache-control'], 'public, max-age=30, stale-while-revalidate=60');
    t.same(String(first.headers.vary).split(/,\s*/).sort(), ['garage-version', 'x-api-key'], 'varies by key and version, not by Origin');
    t.match(first.headers.etag, /^"[^"]+"$/);
    t.notOk(first.headers['set-cookie'], 'no cookie');
    t.notOk(first.headers['ratelimit-limit'], 'no rate-limit state that a stored copy would make stale');
    for (let i = 0; i < 3; i += 1) {
      const again = await nginx.get(url);
      t.equal(cacheStatus(again), 'HIT');
      t.equal(again.body, first.body);
      t.equal(again.headers.etag, first.headers.etag);
    }
    const notModified = await nginx.get(url, { 'if-none-match': first.headers.etag as string });
    t.equal(notModified.status, 304, "the cache answers a visitor's conditional request itself");
    t.equal(cacheStatus(notModified), 'HIT');
    const crossOrigin = await nginx.get(url, { origin: ORIGIN });
    t.equal(cacheStatus(crossOrigin), 'HIT', 'a cross-origin read shares the entry');
    t.equal(crossOrigin.headers['access-control-allow-origin'], '*');
    t.equal(await answered(route, 200), before + 1, 'the API answered the first read only');
    t.equal(await answered(route, 304), 0);
  }

  t.test('each answer from the cache has its own request id', async (t) => {
    const [a, b] = [await nginx.get(list), await nginx.get(list)];
    t.equal(cacheStatus(a), 'HIT');
    t.not(a.headers['x-request-id'], b.headers['x-request-id']);
    const mine = await nginx.get(list, { 'x-request-id': 'website-render-42' });
    t.equal(mine.headers['x-request-id'], 'website-render-42', 'a valid id sent is echoed, even from the cache');
  });

  t.test('Garage-Version selects its own entry', async (t) => {
    const another = (await versions()).find((v) => v !== FIRST_VERSION);
    if (another === undefined) throw new Error('this test needs a second supported API version');
    const before = await answered(LIST_ROUTE, 200);
    const asked = await nginx.get(list, { 'garage-version': another });
    t.equal(cacheStatus(asked), 'MISS', "another version is not served from the oldest version's entry");
    t.equal(asked.headers['garage-version'], another);
    const askedAgain = await nginx.get(list, { 'garage-version': another });
    t.equal(cacheStatus(askedAgain), 'HIT');
    t.equal(askedAgain.headers['garage-version'], another);
    const oldest = await nginx.get(list);
    t.equal(cacheStatus(oldest), 'HIT');
    t.equal(oldest.headers['garage-version'], FIRST_VERSION, 'without the header: the oldest version, as before');
    t.equal(await answered(LIST_ROUTE, 200), before + 1);
  });

  t.test('key-authenticated reads are never stored', async (t) => {
    const key = garage.keys.all;
    const reads: [string, Record<string, string>][] = [
      [LIST_ROUTE, { 'x-api-key': key }],
      [list, { 'x-api-key': key }],
      [`${LIST_ROUTE}?apiKey=${key}`, {}],
    ];
    for (const [url, headers] of reads) {
      const before = await answered(LIST_ROUTE, 200);
      for (let i = 0; i < 3; i += 1) {
        const res = await nginx.get(url, headers);
        t.equal(res.status, 200, url);
        t.equal(res.headers['cache-control'], 'private, no-cache');
        t.equal(cacheStatus(res), 'MISS', `${url} with a key: asked of the API every time`);
      }
      t.equal(await answered(LIST_ROUTE, 200), before + 3);
    }
    const publicAgain = await nginx.get(list);
    t.equal(cacheStatus(publicAgain), 'HIT', 'the public entry is still there, never replaced by a keyed answer');
    t.equal(publicAgain.headers['cache-control'], 'public, max-age=30, stale-while-revalidate=60');
  });

  t.test('errors are not stored', async (t) => {
    const errors: [string, string, number][] = [
      [`${LIST_ROUTE}?garageSlug=no-such-garage`, LIST_ROUTE, 404],
      [`${LIST_ROUTE}?garageSlug=Not_A_Slug`, LIST_ROUTE, 400],
      [`${LIST_ROUTE}?garageSlug=${garage.slug}&limit=0`, LIST_ROUTE, 400],
      [`${LIST_ROUTE}/${garage.vehicleIds['V-SOLD']}?garageSlug=${garage.slug}`, ITEM_ROUTE, 404],
    ];
    for (const [url, route, status] of errors) {
      const before = await answered(route, status);
      for (let i = 0; i < 2; i += 1) {
        const res = await nginx.get(url);
        t.equal(res.status, status, url);
        t.equal(res.headers['cache-control'], 'no-store');
        t.equal(cacheStatus(res), 'MISS');
      }
      t.equal(await answered(route, status), before + 2, `${url}: both reached the API`);
    }
  });

  t.test('within max-age the cache keeps serving what it stored', async (t) => {
    await admin.importVehicles(garage.slug, [vehicle('V-NEW', { make: 'Dacia' })]);
    const cached = await nginx.get(list);
    t.equal(cacheStatus(cached), 'HIT');
    t.notOk(references(cached).includes('V-NEW'), 'the new vehicle shows once the stored answer is stale');
  });
});

t.test('past max-age the cache revalidates with the ETag: 304 while unchanged, the new fleet after a change', async (t) => {
  // One second instead of 30, so that the test need not wait long: PUBLIC_CACHE_MAX_AGE_SECONDS is an operator setting.
  const { admin, garage, nginx, answered } = await showcase(t, { PUBLIC_CACHE_MAX_AGE_SECONDS: '1' });
  const list = `${LIST_ROUTE}?garageSlug=${garage.slug}`;

  const first = await nginx.get(list);
  t.equal(cacheStatus(first), 'MISS');
  t.equal(first.headers['cache-control'], 'public, max-age=1, stale-while-revalidate=2');
  const etag = first.headers.etag as string;
  t.equal(await answered(LIST_ROUTE, 200), 1);

  /**
   * Reads through the cache until the API has answered `count` revalidations with `status` (bounded: never for ever).
   * nginx drops a visitor's own If-None-Match on its way to the API, so a 304 there answers nginx's revalidation.
   */
  const readUntil = async (status: number, count: number, done: (res: HttpResponse) => boolean = () => true) => {
    const answers: HttpResponse[] = [];
    for (let attempt = 0; ; attempt += 1) {
      const res = await nginx.get(list);
      answers.push(res);
      if ((await answered(LIST_ROUTE, status)) >= count && done(res)) return answers;
      if (attempt >= 100) throw new Error(`no revalidation answered ${status}; the cache said ${answers.map(cacheStatus).join(' ')}`);
      await sleep(100);
    }
  };

  const meanwhile = await readUntil(304, 1);
  t.ok(meanwhile.every((a) => a.status === 200 && a.headers.etag === etag), 'every visitor got the stored answer');
  t.ok(meanwhile.some((a) => ['STALE', 'REVALIDATED'].includes(String(cacheStatus(a)))), 'the stale entry was revalidated');
  t.equal(await answered(LIST_ROUTE, 200), 1, "the cache asked with the stored ETag: the API's 304 renewed the entry, no body sent again");
  const fresh = await readUntil(304, 1, (res) => cacheStatus(res) === 'HIT');
  t.equal(fresh.at(-1)?.headers.etag, etag, 'the renewed entry is served again');

  await admin.importVehicles(garage.slug, [vehicle('V-NEW', { make: 'Dacia' })]);
  const changed = (await readUntil(200, 2, (res) => references(res).includes('V-NEW'))).at(-1)!;
  t.not(changed.headers.etag, etag, 'a new ETag');
  t.equal(await answered(LIST_ROUTE, 200), 2, 'the revalidation with the old ETag got the new fleet, once');
});
