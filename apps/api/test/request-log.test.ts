import t from 'tap';
import { build, RFC3339 } from './helper.js';

/** docs/reference/contract.md §10: what the API saw of a connector's requests, for that connector alone. */
t.test('request log', async (t) => {
  const { app, admin } = await build(t);
  await admin.createGarage({ slug: 'logged', name: 'Logged' });
  const shop = await admin.createIntegration({ garageSlug: 'logged', name: 'shop', sync: ['catalog'], webhookUrl: null });
  const other = await admin.createIntegration({ garageSlug: 'logged', name: 'other', sync: ['catalog'], webhookUrl: null });
  await app.ready();
  const recorder = app.requestRecorder!;
  const call = (url: string, apiKey: string, requestId?: string) =>
    app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey, ...(requestId ? { 'x-request-id': requestId } : {}) } });
  const list = async (query: string, apiKey = shop.apiKey) => {
    await recorder.flush();
    const res = await call(`/api/public/requests${query}`, apiKey);
    t.equal(res.statusCode, 200, `GET /requests${query}`, { body: res.body });
    return res.json() as { data: Record<string, any>[]; nextCursor: string | null };
  };

  t.test('a success and an error are recorded with what the connector needs, and no secret', async (t) => {
    await call('/api/public/products?limit=2&sku=A', shop.apiKey, 'ok-1');
    await call(`/api/public/products?limit=9999&apiKey=${shop.apiKey}`, shop.apiKey, 'bad-1');
    await call('/api/public/stock', shop.apiKey, 'denied-1');
    const { data } = await list('?route=/api/public/products');
    const [bad, ok] = data as [Record<string, any>, Record<string, any>];
    t.match(ok, {
      requestId: 'ok-1',
      receivedAt: RFC3339,
      mode: 'live',
      method: 'GET',
      route: '/api/public/products',
      path: '/api/public/products',
      queryParameters: ['limit', 'sku'],
      status: 200,
      errorCode: null,
      errorBody: null,
      apiVersion: shop.integration.apiVersion,
      durationMs: Number,
    });
    t.match(bad, { requestId: 'bad-1', status: 400, errorCode: 'VALIDATION_FAILED', queryParameters: ['limit', 'apiKey'] });
    t.match(bad.errorBody, { code: 'VALIDATION_FAILED', error: String, details: Array });
    t.notOk(JSON.stringify(data).includes(shop.apiKey), 'the key sent in the query is nowhere in the records');

    const one = await call('/api/public/requests/bad-1', shop.apiKey);
    t.equal(one.statusCode, 200);
    t.same(one.json().data, bad, 'one record by its x-request-id');
  });

  t.test('a valid key whose toggle is off is recorded with its 401 (the connector sees why); an unknown key belongs to no integration', async (t) => {
    await call('/api/public/products', 'f'.repeat(32), 'unknown-1');
    const denied = (await list('?status=401')).data;
    t.same(denied.map((r) => r.requestId), ['denied-1']);
    t.match(denied[0], { route: '/api/public/stock', status: 401, errorCode: 'UNAUTHORIZED' });
  });

  t.test('filters: a status, a class, a time; pages newest first', async (t) => {
    t.same((await list('?status=4xx')).data.map((r) => r.requestId), ['denied-1', 'bad-1']);
    t.same((await list('?status=200&route=/api/public/products')).data.map((r) => r.requestId), ['ok-1']);
    t.same((await list(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).data, []);
    const first = await list('?limit=2');
    t.equal(first.data.length, 2);
    t.type(first.nextCursor, 'string');
    const second = await list(`?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    const seen = [...first.data, ...second.data].map((r) => `${r.requestId}@${r.receivedAt}`);
    t.equal(new Set(seen).size, seen.length, 'no record twice across pages');
    const times = [...first.data, ...second.data].map((r) => Date.parse(r.receivedAt));
    t.same(times, [...times].sort((a, b) => b - a), 'newest first');
    const badStatus = await call('/api/public/requests?status=4x', shop.apiKey);
    t.equal(badStatus.statusCode, 400);
  });

  t.test('another integration sees none of them, and an unknown id is 404', async (t) => {
    const theirs = await list('', other.apiKey);
    t.notOk(theirs.data.some((r) => ['ok-1', 'bad-1'].includes(r.requestId)));
    t.equal((await call('/api/public/requests/ok-1', other.apiKey)).statusCode, 404);
    t.equal((await call('/api/public/requests/never-sent', shop.apiKey)).statusCode, 404);
    t.equal((await call('/api/public/requests', 'f'.repeat(32))).statusCode, 401);
  });

  t.test('a query parameter name that may be a key is stored as [redacted], as a log line writes it, in the error body too', async (t) => {
    const res = await call(`/api/public/products?${other.apiKey}=1`, other.apiKey, 'named-1');
    t.same(res.json().details, [{ path: '/[redacted]', message: 'is not an allowed parameter' }], 'nor does the error name it');
    const [record] = (await list('', other.apiKey)).data.filter((r) => r.requestId === 'named-1');
    t.same(record?.queryParameters, ['[redacted]']);
    t.notOk(JSON.stringify(record).includes(other.apiKey));
  });

  t.test('the test key sees the test mode\'s requests only', async (t) => {
    await call('/api/public/products', shop.sandbox.testApiKey, 'in-test');
    const test = await list('', shop.sandbox.testApiKey);
    t.ok(test.data.some((r) => r.requestId === 'in-test' && r.mode === 'test'));
    t.notOk(test.data.some((r) => r.requestId === 'ok-1'));
    t.notOk((await list('')).data.some((r) => r.requestId === 'in-test'));
    t.equal((await call('/api/public/requests/in-test', shop.apiKey)).statusCode, 404);
  });

  t.test('the metrics count what was written', async (t) => {
    const text = await app.metrics.registry.metrics();
    t.match(text, /request_log_written_total \d+/);
    t.match(text, /request_log_dropped_total 0/);
  });

  t.test("the documentation's pages, asked without a key, leave no record", async (t) => {
    const written = async () => Number(/request_log_written_total (\d+)/.exec(await app.metrics.registry.metrics())?.[1]);
    await recorder.flush();
    const before = await written();
    for (const url of ['/api/public/docs', '/api/public/docs/connectors/quick-start']) {
      const res = await app.inject({ method: 'GET', url });
      t.ok(res.statusCode < 400, `${url}: ${res.statusCode}`);
    }
    await call('/api/public/products', shop.apiKey, 'after-docs');
    await recorder.flush();
    t.equal(await written(), before + 1, "only the connector's request after them is written");
  });
});

t.test('REQUEST_LOG=off: nothing is recorded, the list answers empty', async (t) => {
  const { app, admin } = await build(t, { env: { REQUEST_LOG: 'off' } });
  await admin.createGarage({ slug: 'quiet', name: 'Quiet' });
  const shop = await admin.createIntegration({ garageSlug: 'quiet', name: 'shop', sync: ['catalog'], webhookUrl: null });
  await app.ready();
  t.equal(app.requestRecorder, null);
  await app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-api-key': shop.apiKey } });
  const res = await app.inject({ method: 'GET', url: '/api/public/requests', headers: { 'x-api-key': shop.apiKey } });
  t.same(res.json(), { data: [], nextCursor: null });
});

t.test('a record that cannot be written fails no request: it is counted in request_log_write_failures_total', async (t) => {
  const { app, admin } = await build(t);
  await admin.createGarage({ slug: 'unlogged', name: 'Unlogged' });
  const shop = await admin.createIntegration({ garageSlug: 'unlogged', name: 'shop', sync: ['catalog'], webhookUrl: null });
  await app.ready();
  const { pool } = app.storage.handle;
  if (!pool) throw new Error('the API tests run on Postgres');
  // The table out of the way stands for any write that fails: a lost database, a full disk, a lock timeout.
  await pool.query('alter table request_log_chunks rename to request_log_away');
  t.teardown(() => pool.query('alter table request_log_away rename to request_log_chunks'));
  const res = await app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-api-key': shop.apiKey } });
  t.equal(res.statusCode, 200, 'the request is answered');
  await app.requestRecorder!.flush();
  t.match(await app.metrics.registry.metrics(), /request_log_write_failures_total [1-9]/, 'the lost record is counted');
});
