import Fastify from 'fastify';
import t from 'tap';
import methodNotAllowed from '../src/plugins/method-not-allowed.js';
import routeMethods from '../src/plugins/route-methods.js';

t.test('405 routes cover patterns of one shape registered under different parameter names', async (t) => {
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  t.teardown(() => app.close());
  await app.register(routeMethods);
  app.get('/things/:token', async () => ({ read: true }));
  app.post('/things/:id', async () => ({ written: true }));
  app.post('/things/:id/archive', async () => ({ archived: true }));
  await app.register(methodNotAllowed);
  await app.ready();

  t.equal((await app.inject({ method: 'GET', url: '/things/1' })).statusCode, 200);
  t.equal((await app.inject({ method: 'POST', url: '/things/1' })).statusCode, 200);
  for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
    const res = await app.inject({ method, url: '/things/1' });
    t.equal(res.statusCode, 405, method);
    t.equal(res.headers.allow, 'GET, HEAD, POST', `${method}: Allow names both patterns' methods`);
  }
  const archive = await app.inject({ method: 'GET', url: '/things/1/archive' });
  t.equal(archive.statusCode, 405);
  t.equal(archive.headers.allow, 'POST');
  t.equal((await app.inject({ method: 'GET', url: '/nothing' })).statusCode, 404, 'an unknown path stays a 404');
});
