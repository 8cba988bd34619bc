import t from 'tap';
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
  ];
  for (const { url, headers } of requests) await app.inject({ method: 'GET', url, headers });

  const text = logs.text;
  t.ok(text.length > 0, 'something was logged');
  t.notOk(text.includes(key), 'the valid key appears in no log line');
  t.notOk(text.includes(unknownKey), 'an unknown key appears in no log line either');
  t.match(text, /apiKey=\[REDACTED\]/, 'the URL shows that a key was sent');

  const lines = logs.lines;
  const incoming = lines.filter((l) => l.msg === 'incoming request');
  t.equal(incoming.length, requests.length, 'every request was logged');
  for (const line of lines.filter((l) => l.req !== undefined || l.res !== undefined)) {
    t.type(line.reqId, 'string', 'request lines carry reqId');
  }
  const traced = lines.filter((l) => l.reqId === 'trace-abc.1');
  t.same(traced.map((l) => l.msg), ['incoming request', 'request completed'], 'the echoed id labels the lines of its request');

  const res = await app.inject({ method: 'GET', url: '/api/public/products?limit=0', headers: { 'x-api-key': key } });
  const id = res.headers['x-request-id'];
  const own = logs.lines.filter((l) => l.reqId === id);
  t.ok(own.length >= 3, 'incoming, the client error, completed');
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
