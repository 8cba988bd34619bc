// The list cache answers after a list route's access hook, whatever its kind (a callback hook that finished at once, one
// that finished later, an async one); what the access hook refuses never reaches the cache. Its pages are bounded per
// garage as well as in all.
import Fastify, { type FastifyReply, type FastifyRequest, type HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { testClock } from '@garage/domain/testing';
import t, { type Test } from 'tap';
import httpConventions from '../src/plugins/http-conventions.js';
import listCache from '../src/plugins/list-cache.js';

const GARAGE = '11111111-1111-4111-8111-111111111111';

type Access = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;

/** An app with the list cache and one list route behind `access`; `reads` counts the handler's runs. */
const appWith = async (t: Test, onRequest: Access | ((request: FastifyRequest) => Promise<void>)) => {
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

t.test("one garage flooding the cache with new queries does not evict another garage's page", async (t) => {
  const garageOf: Access = (request, _reply, done) => {
    request.garageId = request.headers['x-garage'] as string;
    done();
  };
  const app = Fastify();
  t.teardown(() => app.close());
  app.decorate('listVersionProbe', { versions: async (_list: string, ids: readonly string[]) => new Map(ids.map((id) => [id, 'v1'])) });
  await app.register(httpConventions);
  await app.register(fp(async () => {}, { name: 'use-cases' }));
  // Time stands still: the flood takes longer than a page's maximum age on a busy machine.
  await app.register(listCache, { versionShareMs: 60_000, clock: testClock(Date.now()) });
  const reads = new Map<string, number>();
  // Pages of some 64 KiB: the flood's bytes pass the garage's share many times over.
  const filler = 'x'.repeat(64 * 1024);
  app.get('/list', { config: { etag: true, listCache: 'vehicles' }, onRequest: garageOf }, async (request) => {
    const garage = request.headers['x-garage'] as string;
    reads.set(garage, (reads.get(garage) ?? 0) + 1);
    return { garage, query: request.query, filler };
  });
  const get = (garage: string, query: string) => app.inject({ url: `/list?${query}`, headers: { 'x-garage': garage } });

  // Read twice: kept from the second read on.
  await get(GARAGE, 'updatedSince=quiet');
  await get(GARAGE, 'updatedSince=quiet');
  t.equal(reads.get(GARAGE), 2);
  const flooder = '22222222-2222-4222-8222-222222222222';
  for (let i = 0; i < 300; i += 1) {
    await get(flooder, `updatedSince=${i}`);
    await get(flooder, `updatedSince=${i}`);
  }
  t.equal(reads.get(flooder), 600, 'the flood reads every page it asks for');
  const again = await get(GARAGE, 'updatedSince=quiet');
  t.equal(again.statusCode, 200);
  t.equal(reads.get(GARAGE), 2, "the quiet garage's page is still served from the cache");
  const recent = await get(flooder, 'updatedSince=299');
  t.equal(recent.statusCode, 200);
  t.equal(reads.get(flooder), 600, "the flooder keeps its most recent pages, within its share");
});
