import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { ApiError, createClient } from '../src/index.js';
import { startSeededApi } from './server.js';

type Fault = (req: IncomingMessage, res: ServerResponse, forward: () => Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>) => Promise<boolean>;

/**
 * A proxy on loopback in front of the API that applies the next queued fault to a request (answering itself, or
 * forwarding and then losing the answer), and forwards untouched when none is queued. It records what it saw.
 */
const startFaultyProxy = async (t: Test, target: string) => {
  const faults: Fault[] = [];
  const seen: { method: string; url: string; idempotencyKey: string | undefined; at: number }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    seen.push({ method: req.method!, url: req.url!, idempotencyKey: req.headers['idempotency-key'] as string | undefined, at: Date.now() });
    const forward = () =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const upstream = httpRequest(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => resolve({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(parts) }));
        });
        upstream.on('error', reject);
        upstream.end(body);
      });
    const fault = faults.shift();
    if (fault && (await fault(req, res, forward))) return;
    const answer = await forward();
    res.writeHead(answer.status, answer.headers as Record<string, string>).end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, faults, seen };
};

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

t.test('retries (docs/reference/contract.md §7): bounded, with the same Idempotency-Key', async (t) => {
  const server = await startSeededApi(t);
  const proxy = await startFaultyProxy(t, server.url);
  const api = createClient({ baseUrl: proxy.url, apiKey: server.apiKey, baseDelayMs: 20 });

  t.test('a 503 then a success', async (t) => {
    proxy.faults.push(async (_req, res) => (json(res, 503, { error: 'down', code: 'UNAVAILABLE' }), true));
    const before = proxy.seen.length;
    const vehicle = await api.fleet.get(server.vehicleIds['V-1']!);
    t.equal(vehicle.reference, 'V-1');
    t.equal(proxy.seen.length - before, 2, 'one retry');
  });

  t.test('a 429 waits out Retry-After', async (t) => {
    proxy.faults.push(async (_req, res) => (json(res, 429, { error: 'slow down', code: 'RATE_LIMITED' }, { 'retry-after': '1' }), true));
    const before = proxy.seen.length;
    const skus = [];
    for await (const p of api.products.list()) skus.push(p.sku);
    t.equal(skus.length, 3);
    const [first, second] = proxy.seen.slice(before);
    t.ok(second!.at - first!.at >= 950, `waited ${second!.at - first!.at} ms for Retry-After: 1`);
  });

  t.test('a booking whose answer was lost is retried with the same key and returns the first result, booked once', async (t) => {
    // A week from 20 days on: the garage opens Monday to Friday, and one day alone may fall on a weekend.
    const from = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const to = new Date(Date.now() + 26 * 86_400_000).toISOString().slice(0, 10);
    const [slot] = await api.appointments.availability({ from, to, durationMinutes: 30 });
    // The API books it, then the connection drops before the answer reaches the client.
    proxy.faults.push(async (_req, res, forward) => {
      await forward();
      res.socket?.destroy();
      return true;
    });
    const before = proxy.seen.length;
    const { id: appointmentId } = await api.appointments.create({ startsAt: slot!.startsAt, durationMinutes: 30, customer: { name: 'Lost', phone: '+33 6 00 00 00 00' } });
    const posts = proxy.seen.slice(before).filter((r) => r.method === 'POST');
    t.equal(posts.length, 2, 'sent twice');
    t.ok(posts[0]!.idempotencyKey, 'with an Idempotency-Key');
    t.equal(posts[0]!.idempotencyKey, posts[1]!.idempotencyKey, 'the same key on the retry');
    const { rows } = await server.database.handle.pool!.query('select id from appointments where starts_at = $1', [slot!.startsAt]);
    t.same(rows.map((r: { id: string }) => r.id), [appointmentId], 'one appointment, the one answered');
  });

  t.test('a 409 IDEMPOTENCY_IN_PROGRESS is retried; other 409s are not', async (t) => {
    proxy.faults.push(async (_req, res) => (json(res, 409, { error: 'busy', code: 'IDEMPOTENCY_IN_PROGRESS' }), true));
    const before = proxy.seen.length;
    t.match(await api.leads.create({ vehicleId: server.vehicleIds['V-2']!, name: 'Paul', phone: '0600000000', consent: true }), { vehicleId: server.vehicleIds['V-2'] });
    t.equal(proxy.seen.length - before, 2);
    proxy.faults.push(async (_req, res) => (json(res, 409, { error: 'full', code: 'SLOT_FULL' }), true));
    const again = proxy.seen.length;
    await t.rejects(api.leads.create({ vehicleId: server.vehicleIds['V-2']!, name: 'Paul', phone: '0600000000', consent: true }), { code: 'SLOT_FULL' });
    t.equal(proxy.seen.length - again, 1, 'no retry');
  });

  t.test('connection resets are retried; the number of tries is bounded by maxRetries', async (t) => {
    proxy.faults.push(async (_req, res) => (res.socket?.destroy(), true));
    t.equal((await api.fleet.get(server.vehicleIds['V-1']!)).reference, 'V-1');
    const limited = createClient({ baseUrl: proxy.url, apiKey: server.apiKey, baseDelayMs: 1, maxRetries: 2 });
    for (let i = 0; i < 5; i++) proxy.faults.push(async (_req, res) => (json(res, 503, { error: 'down', code: 'UNAVAILABLE' }), true));
    const before = proxy.seen.length;
    const error = await limited.fleet.get(server.vehicleIds['V-1']!).catch((e: unknown) => e);
    t.ok(error instanceof ApiError);
    t.match(error, { status: 503, code: 'UNAVAILABLE' });
    t.equal(proxy.seen.length - before, 3, 'the first try and two retries');
    proxy.faults.length = 0;
  });
});
