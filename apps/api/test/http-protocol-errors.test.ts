import { once } from 'node:events';
import { connect } from 'node:net';
import t from 'tap';
import { build, LogCapture, seedGarage } from './helper.js';

/** Writes raw bytes to the server and reads until it closes the connection: status line, headers, body. */
const raw = (port: number, request: string | Buffer) =>
  new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server closes as soon as it has answered, maybe before reading all we sent: a reset is expected then.
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.end(request);
  });

t.test('a known path with a wrong method: 405 METHOD_NOT_ALLOWED with Allow; an unknown path: 404', async (t) => {
  const { app, admin } = await build(t);
  const garage = await seedGarage(admin);
  const cases: [string, string, string][] = [
    ['POST', '/api/public/products', 'GET, HEAD'],
    ['DELETE', '/api/public/products/', 'GET, HEAD'],
    ['PUT', '/api/public/appointments', 'GET, HEAD, POST'],
    ['GET', '/api/public/appointments/00000000-0000-4000-8000-000000000000/cancel', 'POST'],
    // `/fleet/lead` is a resource of its own, not a :vehicleId.
    ['PUT', '/api/public/fleet/lead', 'OPTIONS, POST'],
    ['GET', '/api/public/fleet/lead', 'OPTIONS, POST'],
    ['OPTIONS', '/api/public/products', 'GET, HEAD'],
    ['TRACE', '/health/live', 'GET, HEAD'],
    ['DELETE', `/api/public/fleet/${garage.vehicleIds['V-1']}?garageSlug=${garage.slug}`, 'GET, HEAD, OPTIONS'],
    ['PATCH', '/api/public/quotes/some-token/accept', 'OPTIONS, POST'],
    ['POST', '/api/public/appointments/availability', 'GET, HEAD'],
  ];
  for (const [method, url, allow] of cases) {
    const res = await app.inject({ method: method as 'POST', url, headers: { 'x-api-key': garage.keys.all } });
    t.equal(res.statusCode, 405, `${method} ${url}`);
    t.equal(res.headers.allow, allow, `${method} ${url}: Allow`);
    t.match(res.json(), { code: 'METHOD_NOT_ALLOWED', error: String });
    t.ok(res.headers['x-request-id']);
  }
  // A GET whose route answers not found (a static file that does not exist, a path that tries to leave the
  // directory) is a 404, not a wrong method.
  const notFound = [
    ['GET', '/api/public/nope'],
    ['POST', '/api/public/products/x/y'],
    ['DELETE', '/api/public/fleet/a/b/c'],
    ['GET', '/api/public/docs/static/..%2f..%2fetc%2fpasswd'],
    ['GET', '/api/public/docs/static/%2e%2e/%2e%2e/etc/passwd'],
    ['GET', '/api/public/docs/static/no-such-file.js'],
    ['HEAD', '/api/public/docs/static/no-such-file.js'],
  ];
  for (const [method, url] of notFound) {
    const res = await app.inject({ method: method as 'GET', url });
    t.equal(res.statusCode, 404, `${method} ${url}`);
    if (method !== 'HEAD') t.equal(res.json().code, 'NOT_FOUND');
    t.notOk(res.headers.allow);
  }
});

t.test('requests the HTTP parser refuses get the contract error body (400 / 431) over a real socket', async (t) => {
  const { app } = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };

  const malformed = [
    'NOT A REQUEST\r\n\r\n',
    'GET /health/live HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
    'POST /api/public/fleet/lead HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    'GET /health/live HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
    'GET /health/live HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  ];
  for (const request of malformed) {
    const res = await raw(port, request);
    t.equal(res.status, 400, JSON.stringify(request));
    t.same(JSON.parse(res.body), { error: 'Malformed HTTP request', code: 'VALIDATION_FAILED' });
    t.match(res.headers['content-type'], /^application\/json/);
    t.ok(res.headers['x-request-id'], 'a request id, as on every response');
  }

  const huge = await raw(port, `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
  t.equal(huge.status, 431);
  t.same(JSON.parse(huge.body), { error: 'Request headers are larger than the server accepts', code: 'HEADERS_TOO_LARGE' });

  const fine = await raw(port, 'GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  t.equal(fine.status, 200, 'the server still serves well-formed requests');
});

t.test('a client that closes the connection right after its headers: the request ends quietly, no error line', async (t) => {
  const logs = new LogCapture();
  const { app } = await build(t, { logs, env: { TRUST_PROXY: '1' } });
  // The connection closes before the rate limit counts the request, as when a client resets right after its
  // headers: the socket no longer knows the client's address.
  app.addHook('onRequest', async (request) => {
    const socket = request.raw.socket;
    socket.destroy();
    if (!socket.closed) await once(socket, 'close');
  });
  const answered: string[] = [];
  app.addHook('onSend', async (request) => void answered.push(request.id));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };

  const attempts = 3;
  for (let i = 0; i < attempts; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('POST /api/public/fleet/lead HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    await once(socket, 'close');
  }
  // Every request has run to its (unsent) answer: whatever it logs has been logged.
  while (answered.length < attempts) await new Promise((resolve) => setImmediate(resolve));
  t.same(logs.lines.filter((line) => Number(line.level) >= 50), [], 'no error line');
  t.notMatch(logs.text, /"stack"/, 'no stack');
});
