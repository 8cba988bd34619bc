import { readFile } from 'node:fs/promises';
import t from 'tap';
import { build } from './helper.js';

t.test('OpenAPI 3.1 document and docs page', async (t) => {
  const { app } = await build(t);
  const res = await app.inject({ method: 'GET', url: '/api/public/openapi.json' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^application\/json/);
  const doc = res.json();
  t.equal(doc.openapi, '3.1.0');
  t.same(Object.keys(doc.paths).sort(), [
    '/api/public/appointments',
    '/api/public/appointments/availability',
    '/api/public/appointments/{appointmentId}',
    '/api/public/appointments/{appointmentId}/cancel',
    '/api/public/appointments/{appointmentId}/reschedule',
    '/api/public/events',
    '/api/public/fleet',
    '/api/public/fleet/lead',
    '/api/public/fleet/{vehicleId}',
    '/api/public/products',
    '/api/public/quotes/{token}',
    '/api/public/quotes/{token}/accept',
    '/api/public/quotes/{token}/refuse',
    '/api/public/requests',
    '/api/public/requests/{requestId}',
    '/api/public/stock',
    '/api/public/test-helpers/appointments/{appointmentId}/status',
    '/api/public/test-helpers/quotes',
    '/api/public/test-helpers/sandbox/reset',
    '/api/public/webhooks/deliveries',
    '/api/public/webhooks/deliveries/{deliveryId}/retry',
    '/api/public/webhooks/test',
  ]);
  for (const path of ['/api/public/test-helpers/quotes', '/api/public/test-helpers/sandbox/reset']) {
    t.same(doc.paths[path].post.tags, ['Test helpers'], `${path}: under the tag Test helpers`);
  }
  t.ok(doc.tags.some((tag: { name: string }) => tag.name === 'Test helpers'));
  t.ok(doc.webhooks['appointment.updated'].post.requestBody.content['application/json'].schema.required.includes('livemode'), 'every event body says livemode');
  t.ok(doc.components.schemas.Error.properties.code.enum.includes('SANDBOX_LIMIT'), 'SANDBOX_LIMIT is a code of the error schema');
  const accept = doc.paths['/api/public/quotes/{token}/accept'].post;
  t.same(Object.keys(accept.responses).sort(), ['200', '400', '404', '405', '409', '413', '415', '422', '429', '500', '503']);
  t.same(accept.security, [], 'no key');
  t.same(Object.keys(doc.paths['/api/public/fleet/lead'].post.responses).sort(), ['201', '400', '404', '405', '409', '413', '415', '422', '429', '500', '503']);
  t.match(doc.components.securitySchemes.apiKey, { type: 'apiKey', in: 'header', name: 'x-api-key' });
  t.match(doc.components.securitySchemes.apiKeyQuery, { type: 'apiKey', in: 'query', name: 'apiKey' }, 'the deprecated query key is a scheme');

  const products = doc.paths['/api/public/products'].get;
  const params = products.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`).sort();
  t.same(
    params,
    ['header:garage-version', 'header:if-none-match', 'header:x-request-id', 'query:cursor', 'query:limit', 'query:sku', 'query:updatedSince'],
    'apiKey is a security scheme, not a parameter; the request headers are declared',
  );
  t.same(products.security, [{ apiKey: [] }, { apiKeyQuery: [] }]);
  t.same(Object.keys(products.responses).sort(), ['200', '304', '400', '401', '405', '429', '500', '503']);
  // Named schemas are components: follow the reference.
  const deref = (schema: { $ref?: string }) => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema);
  const product = deref(products.responses['200'].content['application/json'].schema.properties.data.items);
  t.equal(products.responses['200'].content['application/json'].schema.properties.data.items.$ref, '#/components/schemas/Product');
  t.same(Object.keys(product.properties).sort(), [
    'active', 'brand', 'category', 'currency', 'description', 'id', 'name', 'priceCents', 'sku', 'unit', 'updatedAt', 'vatRate',
  ]);
  t.equal(product.properties.updatedAt.format, 'date-time');
  t.same(deref(products.responses['400'].content['application/json'].schema).required.sort(), ['code', 'error']);
  t.notOk(products.responses['304'].content, 'a 304 has no body');

  const fleet = doc.paths['/api/public/fleet'].get;
  const queryOf = (op: { parameters: { name: string; in: string }[] }) => op.parameters.filter((p) => p.in === 'query').map((p) => p.name).sort();
  t.same(queryOf(fleet), ['cursor', 'fuel', 'garageSlug', 'limit', 'make', 'updatedSince']);
  t.same(fleet.security, [{ apiKey: [] }, { apiKeyQuery: [] }, {}], 'a key, or none with the public garageSlug');
  const item = doc.paths['/api/public/fleet/{vehicleId}'].get;
  t.ok(item.responses['404']);
  t.same(
    deref(item.responses['200'].content['application/json'].schema.properties.data).properties.fuel.enum,
    ['petrol', 'diesel', 'hybrid', 'electric', 'lpg', 'other'],
  );
  t.notMatch(res.body, /~kind/, 'no builder internals leak into the document');

  // A guard for routes to come: every request body object in the document rejects unknown properties.
  const open: string[] = [];
  const visit = (schema: unknown, at: string): void => {
    if (typeof schema !== 'object' || schema === null) return;
    const s = deref(schema as { $ref?: string }) as Record<string, unknown>;
    if (s.type === 'object' && s.properties && s.additionalProperties !== false) open.push(at);
    for (const [key, value] of Object.entries(s)) visit(value, `${at}/${key}`);
  };
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: unknown }>>)) {
    for (const [method, operation] of Object.entries(operations)) visit(operation.requestBody, `${method.toUpperCase()} ${path}`);
  }
  t.same(open, [], 'request bodies are closed objects (additionalProperties: false)');

  const docs = await app.inject({ method: 'GET', url: '/api/public/docs' });
  t.equal(docs.statusCode, 200);
  t.match(docs.headers['content-type'], /text\/html/);
  t.match(docs.body, /swagger/i);
});

t.test('openapi/openapi.json is the document the routes generate: regenerate it with `pnpm openapi`', async (t) => {
  const { app } = await build(t);
  const served = (await app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json();
  const committed = JSON.parse(await readFile(new URL('../../../openapi/openapi.json', import.meta.url), 'utf8'));
  t.same(committed, served, 'the committed document is up to date (run `pnpm openapi` and commit the result)');
});

t.test('every operation has a unique operationId, a summary and a tag; the document names its server', async (t) => {
  const { app } = await build(t);
  const doc = (await app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json<{
    servers?: unknown[];
    paths: Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] }>>;
  }>();
  t.ok(doc.servers && doc.servers.length > 0, 'servers');
  const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
  t.ok(operations.length >= 14);
  t.ok(operations.every((op) => op.operationId && op.summary && op.tags?.length), 'operationId, summary and tag on each');
  t.equal(new Set(operations.map((op) => op.operationId)).size, operations.length, 'operationIds are unique');
});

t.test('the document declares the response headers, 405 on every operation, and the bodies that may be omitted', async (t) => {
  const { app } = await build(t);
  type Response = { headers?: Record<string, unknown> };
  const doc = (await app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json<{
    paths: Record<string, Record<string, { operationId: string; requestBody?: { required?: boolean }; responses: Record<string, Response> }>>;
  }>();
  const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
  for (const op of operations) {
    t.ok(op.responses['405'], `${op.operationId}: 405`);
    t.ok(Object.values(op.responses).every((r) => r.headers?.['x-request-id']), `${op.operationId}: x-request-id on every response`);
    if (op.responses['304']) t.ok(op.responses['200']?.headers?.etag, `${op.operationId}: ETag on 200`);
    if (op.responses['429']) t.ok(op.responses['429'].headers?.['retry-after'], `${op.operationId}: Retry-After on 429`);
  }
  const body = (id: string) => operations.find((op) => op.operationId === id)?.requestBody;
  for (const id of ['acceptQuote', 'refuseQuote', 'cancelAppointment']) t.equal(body(id)?.required, false, `${id}: the body may be omitted`);
  t.equal(body('createAppointment')?.required, true);
});

t.test('named component schemas, 429 on key-authenticated operations, and a webhooks section with every event', async (t) => {
  const { app } = await build(t);
  type Op = { operationId: string; security?: Record<string, string[]>[]; responses: Record<string, unknown>; parameters?: { name: string; in: string; required?: boolean }[] };
  const doc = (await app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json<{
    paths: Record<string, Record<string, Op>>;
    webhooks: Record<string, { post: Op & { requestBody: { content: { 'application/json': { schema: { properties: { type: { const: string }; data: unknown } } } } } } }>;
    components: { schemas: Record<string, unknown> };
  }>();
  const names = Object.keys(doc.components.schemas);
  for (const name of ['Product', 'StockItem', 'Vehicle', 'Appointment', 'Slot', 'Quote', 'Delivery', 'Event', 'Error']) {
    t.ok(names.includes(name), `components.schemas.${name}`);
  }
  for (const op of Object.values(doc.paths).flatMap((item) => Object.values(item))) {
    if (op.security?.some((r) => 'apiKey' in r)) t.ok(op.responses['429'], `${op.operationId}: 429 (failed-authentication throttle)`);
    t.notOk(op.parameters?.some((p) => p.in === 'query' && p.name === 'apiKey'), `${op.operationId}: no apiKey parameter`);
    t.ok(op.parameters?.some((p) => p.in === 'header' && p.name === 'x-request-id'), `${op.operationId}: x-request-id declared`);
    if (op.responses['304']) t.ok(op.parameters?.some((p) => p.in === 'header' && p.name === 'if-none-match'), `${op.operationId}: If-None-Match`);
  }
  t.same(Object.keys(doc.webhooks).sort(), [
    'appointment.cancelled', 'appointment.created', 'appointment.rescheduled', 'appointment.updated',
    'lead.created', 'quote.accepted', 'quote.refused', 'webhook.test',
  ]);
  for (const [type, item] of Object.entries(doc.webhooks)) {
    const headers = item.post.parameters!.filter((p) => p.in === 'header' && p.required).map((p) => p.name).sort();
    t.same(headers, ['webhook-id', 'webhook-signature', 'webhook-timestamp'], `${type}: the three signature headers`);
    t.equal(item.post.requestBody.content['application/json'].schema.properties.type.const, type);
  }
  t.same(doc.webhooks['appointment.created']!.post.requestBody.content['application/json'].schema.properties.data, { $ref: '#/components/schemas/Appointment' });
});
