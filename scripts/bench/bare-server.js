// The ceiling the API is compared with: the same Fastify version as the API, one route, no logger, no plugins,
// answering with the exact bytes of a products page read once at start. Whatever the API spends beyond this
// (authentication, validation, the database, serialisation, hashing, headers) is what the ratios in the table show.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// Fastify is a dependency of the API, not of the repository root: resolve it from there so both use one copy.
const requireFromApi = createRequire(new URL('../../apps/api/package.json', import.meta.url));
const { default: Fastify } = await import(pathToFileURL(requireFromApi.resolve('fastify')).href);

const body = readFileSync(process.env.BODY_FILE);
const app = Fastify({ logger: false });
app.get('/products', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(body);
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => {
  app.close().then(() => process.exit(0));
});
