import { createTestDatabase } from '@garage/postgres/testing';
import { startReceiver } from '@garage/webhook-delivery/testing';
import { requireTestRedis } from '@garage/redis/testing';
import t from 'tap';
import { adminFor, ENCRYPTION_KEY } from '@garage/composition/testing';
import { eventually, http, startApi } from './support/processes.js';
import { startOtlpReceiver, startWorker, tracingEnv, type ExportedSpan } from './support/telemetry.js';

/**
 * One booking followed end to end, as an operator follows it in a tracing backend: the API and a dedicated worker,
 * each a process of its own exporting OTLP to a collector (a receiver in this test), share one trace from the
 * booking's request to its webhook delivery.
 */

const REDIS_URL = await requireTestRedis();

t.test('a booking and its webhook delivery share one trace across the API and the worker', async (t) => {
  const database = await createTestDatabase('tracing');
  t.teardown(database.drop);
  const hooks = await startReceiver();
  t.teardown(hooks.close);
  const admin = adminFor(database.handle.db);
  await admin.createGarage({ slug: 'traced', name: 'Traced' });
  const { apiKey } = await admin.createIntegration({ garageSlug: 'traced', name: 'shop', sync: ['appointments'], webhookUrl: `${hooks.url}/hooks?token=receiver-secret` });

  const collector = await startOtlpReceiver(t);
  const shared = { DATABASE_URL: database.url, ENCRYPTION_KEY, ...tracingEnv(collector) };
  const api = await startApi(t, { ...shared, REDIS_URL: REDIS_URL!, DELIVER_WEBHOOKS: 'false' });
  const worker = await startWorker(t, { ...shared, WEBHOOK_RETRY_SCHEDULE: '100ms', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' });
  const base = `http://127.0.0.1:${api.port}`;

  const today = new Date().toISOString().slice(0, 10);
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const slots = await http(`${base}/api/public/appointments/availability?from=${today}&to=${inAWeek}`, { headers: { 'x-api-key': apiKey } });
  t.equal(slots.status, 200, 'the availability is listed');
  const startsAt = slots.json<{ data: { startsAt: string }[] }>().data[0]?.startsAt;
  t.ok(startsAt, 'a bookable slot this week');
  // The caller sends a trace context of its own: it may not choose the trace the booking and its delivery are in.
  const callerTrace = 'c0ffee00c0ffee00c0ffee00c0ffee00';
  const callerSpan = 'c0ffee00c0ffee00';
  const booked = await http(`${base}/api/public/appointments`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', traceparent: `00-${callerTrace}-${callerSpan}-01` },
    body: JSON.stringify({ startsAt, customer: { name: 'Jeanne Martin', email: 'jeanne@example.com' } }),
  });
  t.equal(booked.status, 201, 'booked');
  // The discouraged query-parameter key, which no span may carry.
  t.equal((await http(`${base}/api/public/appointments/availability?from=${today}&to=${today}&apiKey=${apiKey}`)).status, 200);
  // A wrong key: the failed-authentication throttle counts it in Redis, and the API logs the refusal.
  t.equal((await http(`${base}/api/public/products`, { headers: { 'x-api-key': 'not-a-key' } })).status, 401);
  await hooks.waitFor(1, 20_000);

  const isRequest = (span: ExportedSpan) => span.service === 'garage-api' && span.name === 'POST /api/public/appointments';
  const isDelivery = (span: ExportedSpan) => span.service === 'garage-worker' && span.name === 'webhook appointment.created';
  const isRefusal = (span: ExportedSpan) => span.name === 'GET /api/public/products' && span.attributes['http.response.status_code'] === 401;
  const isRedisOf = (trace: string | undefined) => (span: ExportedSpan) => span.scope === '@opentelemetry/instrumentation-ioredis' && span.traceId === trace;
  // Spans leave each process in batches: the refusal's, and its Redis commands', may come in a later one than the booking's.
  t.ok(
    await eventually(
      async () => [isRequest, isDelivery, isRedisOf(collector.spans.find(isRefusal)?.traceId)].every((is) => collector.spans.some(is)),
      { attempts: 100, intervalMs: 100 },
    ),
    'both processes exported their spans',
  );
  const request = collector.spans.find(isRequest)!;
  const delivery = collector.spans.find(isDelivery)!;
  t.match(request.attributes, { 'http.route': '/api/public/appointments', 'http.response.status_code': 201 }, 'the request span, named by its route');
  t.equal(delivery.traceId, request.traceId, "the worker's delivery belongs to the booking's trace");
  t.not(request.traceId, callerTrace, "a caller's traceparent does not choose the booking's trace");
  t.notOk(collector.spans.some((span) => span.traceId === callerTrace), 'no stored span joins the caller\'s trace');
  t.match(request.links, [{ traceId: callerTrace, spanId: callerSpan }], "the caller's context is a link of the request span");
  const bookingTrace = collector.spans.filter((span) => span.traceId === request.traceId);
  t.ok(
    bookingTrace.some((span) => span.service === 'garage-api' && span.spanId === delivery.parentSpanId),
    'its parent is a span of the request that wrote the event',
  );
  t.match(delivery.attributes, { 'webhook.event.type': 'appointment.created', 'webhook.attempt': 1, 'webhook.outcome': 'succeeded', 'http.response.status_code': 204, 'server.address': '127.0.0.1' });

  const statements = bookingTrace.filter((span) => span.scope === '@opentelemetry/instrumentation-pg' && typeof span.attributes['db.query.text'] === 'string');
  for (const statement of [/garage_calendar\(/, /book_if_room\(/]) {
    t.ok(statements.some((span) => statement.test(String(span.attributes['db.query.text']))), `the booking's Postgres statements are in its trace: ${statement}`);
  }
  t.ok(collector.spans.some((span) => span.scope === '@opentelemetry/instrumentation-pg' && span.service === 'garage-worker' && span.traceId === request.traceId), "so are the worker's, recording the attempt");
  const refused = collector.spans.find(isRefusal);
  const redis = collector.spans.filter(isRedisOf(refused?.traceId));
  t.ok(redis.length > 0, "Redis commands are traced, in their request's trace");
  for (const span of redis) t.equal(span.attributes['db.query.text'] ?? span.attributes['db.statement'], span.name, `${span.name}: the command's name only`);

  const everything = collector.bodies.join('\n');
  for (const secret of [apiKey, 'jeanne@example.com', 'Jeanne Martin', 'receiver-secret']) {
    t.notOk(everything.includes(secret), `no span carries ${secret === apiKey ? 'the API key' : secret}`);
  }
  t.notOk(collector.spans.some((span) => String(span.attributes['url.path'] ?? '').includes('?')), 'no span carries a query string');

  // Log lines reach stdout in batches, flushed every few hundred milliseconds: a busy machine may hold one back a while.
  await eventually(async () => api.lines.some((line) => line.code === 'UNAUTHORIZED') && worker.lines.some((line) => line.msg === 'webhook delivered'));
  const refusal = api.lines.find((line) => line.code === 'UNAUTHORIZED');
  t.match(refusal, { trace_id: refused?.traceId, span_id: /^[0-9a-f]{16}$/ }, "the API's log line names its request's trace");
  const delivered = worker.lines.find((line) => line.msg === 'webhook delivered');
  t.match(delivered, { trace_id: request.traceId, span_id: delivery.spanId }, "the worker's log line names the trace and the span");
});
