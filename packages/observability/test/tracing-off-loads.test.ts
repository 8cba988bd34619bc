import * as nodeModule from 'node:module';
import t from 'tap';

// module.registerHooks (Node 22.15 on), which the @types/node this project builds with does not describe yet.
type LoadHook = (url: string, context: unknown, next: (url: string, context: unknown) => unknown) => unknown;
const { registerHooks } = nodeModule as unknown as { registerHooks(hooks: { load: LoadHook }): unknown };

t.test('off, the process loads nothing of the SDK, its instrumentations or its core', async (t) => {
  const loaded: string[] = [];
  registerHooks({ load: (url, context, next) => (loaded.push(url), next(url, context)) });
  const { startTracing } = await import('../src/tracing.js');
  t.equal(await startTracing({ serviceName: 'garage-test', env: {} }), false);
  t.ok(loaded.some((url) => url.includes('@opentelemetry/api/')), 'the hook sees the modules tracing loads');
  // @opentelemetry/core brings the semantic conventions: over a megabyte of heap that V8 would mark for nothing.
  t.same(loaded.filter((url) => /@opentelemetry\/(core|sdk-|instrumentation)|@fastify\/otel/.test(url)), []);
});
