import { startReceiver } from '@garage/webhook-delivery/testing';
import { API_VERSIONS, makeRegistry, routesChangedBy, type Json, type VersionChange } from '@garage/versions';
import { Type } from 'typebox';
import t from 'tap';
import { build, FIRST_VERSION, seedGarage } from './helper.js';

/** The changes of the real registry, then `extra`: a registry an app can be given. */
const registryWith = (extra: VersionChange) =>
  makeRegistry({ first: FIRST_VERSION, changes: [...API_VERSIONS.versions.flatMap((v) => v.changes), extra] });

t.test('every route a version change names is a route the API serves', async (t) => {
  const { app } = await build(t);
  await app.ready();
  const named = routesChangedBy(API_VERSIONS);
  t.ok(named.length > 0, 'the real changes name routes');
  for (const route of named) t.ok(app.hasRoute({ method: route.method as 'GET', url: route.url }), `${route.method} ${route.url}`);
});

t.test('an app given a change that names a route it does not serve refuses to start', async (t) => {
  const renamed = registryWith({
    version: '2099-01-01',
    description: 'A change made up for this test, keyed by a route that was renamed.',
    responses: { 'POST /api/public/appointment': { 201: { schema: Type.Object({}), toPrevious: (body) => body } } },
  });
  const { app } = await build(t, { apiVersions: renamed });
  const refused = await app.ready().then(() => null, (err: Error) => err.message);
  t.equal(refused, 'API version changes name routes this app does not serve: POST /api/public/appointment');
});

t.test('webhook bodies are rendered through the registry the app is given', async (t) => {
  const receiver = await startReceiver();
  t.teardown(receiver.close);
  const marked = (data: Json): Json => ({ ...data, renderedBy: 'the registry of this app' });
  const registry = registryWith({
    version: '2099-01-01',
    description: 'A change made up for this test: older versions get a field the newest does not have.',
    events: { 'webhook.test': { schema: Type.Object({}), toPrevious: marked }, 'lead.created': { schema: Type.Object({}), toPrevious: marked } },
  });
  const { app, admin } = await build(t, { apiVersions: registry, env: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' } });
  const garage = await seedGarage(admin);
  const { apiKey } = await admin.createIntegration({
    garageSlug: garage.slug,
    name: 'pinned to the first version',
    sync: ['appointments'],
    webhookUrl: `${receiver.url}/hook`,
    apiVersion: FIRST_VERSION,
  });
  await app.ready();

  const tested = await app.inject({ method: 'POST', url: '/api/public/webhooks/test', headers: { 'x-api-key': apiKey } });
  t.equal(tested.statusCode, 200);
  t.match(JSON.parse(receiver.received[0]!.body), { type: 'webhook.test', apiVersion: FIRST_VERSION, data: { renderedBy: 'the registry of this app' } });

  const lead = { vehicleId: garage.vehicleIds['V-1'], name: 'Paul', email: 'paul@example.com', consent: true };
  t.equal((await app.inject({ method: 'POST', url: '/api/public/fleet/lead', payload: lead })).statusCode, 201);
  await receiver.waitFor(2);
  t.match(JSON.parse(receiver.received[1]!.body), { type: 'lead.created', apiVersion: FIRST_VERSION, data: { renderedBy: 'the registry of this app' } });
});
