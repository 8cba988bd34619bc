import { createRequire } from 'node:module';
import t from 'tap';
import { createLogger } from '../src/logging.js';
import { build, LogCapture, seedGarage } from './helper.js';

t.test('logs: API keys never appear, every line of a request carries its id', async (t) => {
  const logs = new LogCapture();
  const { app, admin } = await build(t, { logs });
  const garage = await seedGarage(admin);
  const key = garage.keys.all;
  const unknownKey = 'fedcba9876543210fedcba9876543210';

  const requests: { url: string; headers?: Record<string, string> }[] = [
    { url: '/api/public/products', headers: { 'x-api-key': key } },
    { url: `/api/public/products?apiKey=${key}` },
    { url: `/api/public/stock?limit=2&apiKey=${key}&sku=A-1` },
    { url: `/api/public/products?APIKEY=${key}` },
    { url: `/api/public/products?api%4Bey=${key}` },
    { url: `/api/public/products?apiKey=${unknownKey}` },
    { url: `/api/public/products?limit=0&apiKey=${key}` },
    { url: `/api/public/fleet?apiKey=${key}` },
    { url: `/api/public/fleet/00000000-0000-4000-8000-000000000000?apiKey=${key}` },
    { url: `/api/public/nowhere?apiKey=${key}` },
    { url: `/api/public/%E0%A4%A?apiKey=${key}` },
    { url: '/api/public/stock', headers: { 'x-api-key': unknownKey } },
    { url: '/api/public/products', headers: { 'x-api-key': key, 'x-request-id': 'trace-abc.1' } },
    // Every spelling the router and the query parser accept (find-my-way also ends the path at `;` and `#`).
    { url: `/api/public/products;apiKey=${key}` },
    { url: `/api/public/products#apiKey=${key}` },
    { url: `/api/public/products?%61piKey=${key}` },
    { url: `/api/public/products?%61%70%69%4b%65%79=${key}` },
    { url: `/api/public/products?limit=1&apiKey=${key}&apiKey=${unknownKey}` },
    { url: `/api/public/products?limit=1;apiKey=${key}` },
    { url: `/api/public/nowhere;apiKey=${key}` },
  ];
  const ids: string[] = [];
  for (const { url, headers } of requests) ids.push(String((await app.inject({ method: 'GET', url, headers })).headers['x-request-id']));

  const text = logs.text;
  t.ok(text.length > 0, 'something was logged');
  t.notOk(text.includes(key), 'the valid key appears in no log line');
  t.notOk(text.includes(unknownKey), 'an unknown key appears in no log line either');
  t.match(text, /"url":"\/api\/public\/products\?apiKey"/, 'the URL shows that a key was sent, by the name alone');

  const missing = await app.inject({ method: 'GET', url: `/api/public/nowhere;apiKey=${key}` });
  t.notOk(missing.body.includes(key), 'nor does a 404 body echo it');

  const lines = logs.lines;
  const completed = lines.filter((l) => l.msg === 'request completed');
  t.ok(ids.every((id) => lines.some((l) => l.reqId === id)), 'every request was logged');
  // A URL the router cannot even decode is answered by the framework error handler, whose line is its only one.
  t.equal(completed.length, requests.length, 'routed requests: one `request completed` line each');
  t.ok(completed.every((l) => typeof (l.res as { statusCode?: unknown }).statusCode === 'number' && typeof l.responseTime === 'number'), 'with its status and duration');
  for (const line of lines.filter((l) => l.req !== undefined || l.res !== undefined)) {
    t.type(line.reqId, 'string', 'request lines carry reqId');
  }
  const traced = lines.filter((l) => l.reqId === 'trace-abc.1');
  t.same(traced.map((l) => l.msg), ['request completed'], 'the echoed id labels the line of its request');

  const res = await app.inject({ method: 'GET', url: '/api/public/products?limit=0', headers: { 'x-api-key': key } });
  const id = res.headers['x-request-id'];
  const own = logs.lines.filter((l) => l.reqId === id);
  t.ok(own.length >= 2, 'the client error, then the request line');
  t.ok(own.some((l) => l.code === 'VALIDATION_FAILED'), 'the error line carries the request id too');
});

t.test('server errors are logged with their details, which the body never shows', async (t) => {
  const logs = new LogCapture();
  const { app } = await build(t, { logs });
  app.get('/test/crash', async () => {
    throw new Error('the details of a bug');
  });
  const res = await app.inject({ method: 'GET', url: '/test/crash' });
  t.equal(res.statusCode, 500);
  t.notMatch(res.body, /details of a bug/);
  const line = logs.lines.find((l) => l.reqId === res.headers['x-request-id'] && l.level === 50);
  t.ok(line, 'an error line for the request');
  t.match((line?.err as { message?: string } | undefined)?.message, /details of a bug/);
  t.match((line?.err as { stack?: string } | undefined)?.stack, /test\/logging\.test\.ts/);
});

t.test('at LOG_LEVEL=warn a request writes no line of its own, its error still does, and the request log still records it', async (t) => {
  const logs = new LogCapture();
  const { app, admin } = await build(t, { logs, env: { LOG_LEVEL: 'warn' } });
  const garage = await seedGarage(admin);
  const key = garage.keys.all;
  app.get('/test/crash', async () => {
    throw new Error('a bug');
  });
  await app.ready();
  const ok = await app.inject({ method: 'GET', url: '/api/public/products', headers: { 'x-api-key': key, 'x-request-id': 'quiet-ok' } });
  const refused = await app.inject({ method: 'GET', url: '/api/public/products?limit=0', headers: { 'x-api-key': key, 'x-request-id': 'quiet-400' } });
  t.equal(ok.statusCode, 200);
  t.equal(refused.statusCode, 400);
  const crash = await app.inject({ method: 'GET', url: '/test/crash' });
  t.equal(crash.statusCode, 500);

  t.notOk(logs.lines.some((l) => l.msg === 'request completed'), 'no request completed line');
  t.notOk(logs.lines.some((l) => l.reqId === 'quiet-400'), 'nor the client error line at info');
  t.ok(logs.lines.some((l) => l.reqId === crash.headers['x-request-id'] && l.level === 50), 'a server error is still logged');

  await app.requestRecorder!.flush();
  const records = await app.inject({ method: 'GET', url: '/api/public/requests', headers: { 'x-api-key': key } });
  t.equal(records.statusCode, 200);
  const ids = (records.json() as { data: { requestId: string }[] }).data.map((r) => r.requestId);
  t.ok(ids.includes('quiet-ok') && ids.includes('quiet-400'), 'both requests are in the request log');
});

t.test('logs and stored idempotency scopes never hold a quote token', async (t) => {
  const logs = new LogCapture();
  const { app, admin, db } = await build(t, { logs, env: { LOG_LEVEL: 'trace' } });
  const garage = await seedGarage(admin);
  const token = (await admin.createQuote({ garageSlug: garage.slug, customerName: 'Jeanne', lines: [{ label: 'Pads', quantity: 1, unitPriceCents: 5000, vatRate: 20 }] })).token;
  const headers = { 'content-type': 'application/json', 'idempotency-key': 'k-1' };
  t.equal((await app.inject({ method: 'GET', url: `/api/public/quotes/${token}` })).statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: `/api/public/quotes/${token}/accept`, headers, payload: '{}' })).statusCode, 200);
  await app.inject({ method: 'POST', url: `/api/public/quotes/${token}/refuse/`, headers, payload: '{}' });
  await app.inject({ method: 'GET', url: `/api/public/quotes/${token};x=1` });

  t.ok(logs.lines.length > 0);
  t.notOk(logs.text.includes(token), 'the token appears in no log line, even at trace level');
  t.match(logs.text, /\/api\/public\/quotes\/\[redacted\]\/accept/, 'paths are logged with the token redacted');
  const { rows: scopes } = await db.handle.pool!.query<{ scope: string }>('select scope from idempotency_keys');
  t.ok(scopes.length >= 1, 'the Idempotency-Key was recorded');
  for (const { scope } of scopes) {
    t.notOk(scope.includes(token), 'the stored scope holds no token');
    t.match(scope, /^path:[0-9a-f]{64}$/, 'only a hash of the path');
  }
});

t.test('logs: a line that carries headers, a query or a key has the credentials redacted, and a request line is whole', async (t) => {
  const lines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
  const secret = 'a-key-that-must-not-be-logged';
  logger.info({ headers: { 'x-api-key': secret, authorization: `Bearer ${secret}`, accept: 'application/json' } }, 'headers');
  logger.info({ query: { apiKey: secret, limit: 2 } }, 'query');
  logger.info({ apiKey: secret }, 'key');
  logger.info({ req: { method: 'GET', url: `/api/public/products?limit=1&apiKey=${secret}`, headers: { 'x-api-key': secret } } }, 'request');
  const [headers, query, key, request] = lines.map((line) => JSON.parse(line));
  t.notOk(lines.join('').includes(secret), 'the key appears in no line');
  t.same(headers.headers, { 'x-api-key': '[REDACTED]', authorization: '[REDACTED]', accept: 'application/json' });
  t.same(query.query, { apiKey: '[REDACTED]', limit: 2 });
  t.equal(key.apiKey, '[REDACTED]');
  t.same(request.req, { method: 'GET', url: '[unmatched]?limit&apiKey' }, 'the serializer keeps no headers, nor a path no router matched');
});

t.test('the pretty printer is loaded only where a terminal reads the log', async (t) => {
  const cache = createRequire(import.meta.url).cache;
  const prettyLoaded = () => Object.keys(cache).some((path) => path.includes('/pino-pretty/'));
  t.notOk(process.stdout.isTTY, 'this test writes to a pipe, as a server in a container does');
  createLogger('silent');
  t.notOk(prettyLoaded(), 'a process writing JSON lines never loads pino-pretty');
  const isTTY = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
  t.teardown(() => {
    if (isTTY) Object.defineProperty(process.stdout, 'isTTY', isTTY);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  });
  createLogger('silent');
  t.ok(prettyLoaded(), 'on a terminal it does');
});

t.test("the documentation's pages log no error: the request log's hooks pass over requests that carry no key", async (t) => {
  const logs = new LogCapture();
  const { app } = await build(t, { logs });
  for (const url of ['/api/public/docs', '/api/public/docs/static/index.html', '/api/public/docs/connectors/quick-start']) {
    const res = await app.inject({ method: 'GET', url });
    t.ok(res.statusCode < 400, `${url}: ${res.statusCode}`);
  }
  t.same(logs.lines.filter((l) => Number(l.level) >= 50).map((l) => (l.err as { message?: string } | undefined)?.message ?? l.msg), []);
});
