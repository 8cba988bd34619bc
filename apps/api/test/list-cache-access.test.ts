// How the list cache joins a list route's access hook (issue 18): it runs the hook, then answers from the cache in the
// same onRequest stage, whether the hook is a callback hook that finished at once, one that finished later, or an
// async one. What the access hook refuses never reaches the cache, and a route it cannot join fails at start.
import Fastify, { type FastifyReply, type FastifyRequest, type HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import t, { type Test } from 'tap';
import httpConventions from '../src/plugins/http-conventions.js';
import listCache from '../src/plugins/list-cache.js';

const GARAGE = '11111111-1111-4111-8111-111111111111';

type Access = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/** An app with the list cache and one list route behind `access`; `reads` counts the handler's runs. */
const appWith = async (t: Test, onRequest: Access | Access[] | ((request: FastifyRequest) => Promise<void>)) => {
  const app = Fastify();
  t.teardown(() => app.close());
  app.decorate('listVersionProbe', { versions: async (_list: string, ids: readonly string[]) => new Map(ids.map((id) => [id, 'v1'])) });
  await app.register(httpConventions);
  await app.register(fp(async () => {}, { name: 'use-cases' }));
  await app.register(listCache, { versionShareMs: 60_000 });
  const counts = { reads: 0 };
  app.get('/list', { config: { etag: true, listCache: 'products' }, onRequest: onRequest as Access }, async () => {
    counts.reads += 1;
    return { items: [1] };
  });
  return { app, counts };
};

const admit: Access = (request, _reply, done) => {
  request.garageId = GARAGE;
  done();
};

// The cache keeps a page's bytes from its second read on (its doorkeeper): two reads, then every request is answered
// from the cache.
t.test('a callback access hook that finishes at once: from the third request on, answered from the cache', async (t) => {
  const { app, counts } = await appWith(t, admit);
  for (let i = 0; i < 5; i += 1) {
    const response = await app.inject('/list');
    t.equal(response.statusCode, 200);
    t.same(response.json(), { items: [1] });
  }
  t.equal(counts.reads, 2);
  const etag = (await app.inject('/list')).headers.etag as string;
  const conditional = await app.inject({ url: '/list', headers: { 'if-none-match': etag } });
  t.equal(conditional.statusCode, 304);
  t.equal(counts.reads, 2);
});

t.test('a callback access hook that finishes later, and an async one, are waited for', async (t) => {
  const later: Access = (request, _reply, done) => {
    setImmediate(() => {
      request.garageId = GARAGE;
      done();
    });
  };
  const asyncAccess = async (request: FastifyRequest) => {
    await new Promise((resolve) => setImmediate(resolve));
    request.garageId = GARAGE;
  };
  for (const access of [later, asyncAccess]) {
    const { app, counts } = await appWith(t, access);
    for (let i = 0; i < 5; i += 1) t.same((await app.inject('/list')).json(), { items: [1] });
    t.equal(counts.reads, 2);
  }
});

t.test('what the access hook refuses or answers never reaches the cache or the handler', async (t) => {
  const refuse: Access = (_request, reply, done) => {
    reply.code(401);
    done(new Error('no key'));
  };
  const answer: Access = (_request, reply) => {
    void reply.code(429).send({ code: 'RATE_LIMITED' });
  };
  const rejects = async () => {
    throw Object.assign(new Error('no key'), { statusCode: 401 });
  };
  for (const access of [refuse, answer, rejects]) {
    const { app, counts } = await appWith(t, access);
    const response = await app.inject('/list');
    t.ok(response.statusCode === 401 || response.statusCode === 429, `refused: ${response.statusCode}`);
    t.equal(counts.reads, 0);
  }
});

t.test('a list route the cache cannot join fails at start', async (t) => {
  await t.rejects(appWith(t, [admit, admit]), /needs exactly one access hook/, 'two access hooks');
  await t.rejects(appWith(t, []), /needs exactly one access hook/, 'none');
});

t.test('an access hook without done that returns no promise gets a 500, not a request left waiting', async (t) => {
  const { app, counts } = await appWith(t, ((request: FastifyRequest) => {
    request.garageId = GARAGE;
  }) as unknown as Access);
  const response = await app.inject('/list');
  t.equal(response.statusCode, 500);
  t.equal(counts.reads, 0);
});
