import fastifyHelmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Clock } from '@garage/domain';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DestinationStream } from 'pino';
import type { Config, TrustProxy } from '@garage/config';
import { API_VERSIONS, type VersionRegistry } from '@garage/versions';
import { clientErrorHandler } from './http/client-errors.js';
import { createLogger, OneLinePerRequest, requestIdOf } from './logging.js';
import demo from './composition/demo.js';
import dataRetention from './composition/data-retention.js';
import inProcessWebhooks from './composition/in-process-webhooks.js';
import redis from './composition/redis.js';
import requestRecorder from './composition/request-recorder.js';
import portalUseCases from './composition/portal.js';
import portal from './portal/index.js';
import { LOGO_SVG, PRODUCT_NAME, STYLESHEET } from './portal/brand.js';
import storage from './composition/storage.js';
import useCases from './composition/use-cases.js';
import auth from './plugins/auth.js';
import errorHandler, { frameworkErrorHandler } from './plugins/error-handler.js';
import gracefulClose from './plugins/graceful-close.js';
import healthMetrics from './plugins/health-metrics.js';
import rateLimits from './plugins/rate-limits.js';
import httpConventions from './plugins/http-conventions.js';
import listCache from './plugins/list-cache.js';
import apiVersions from './plugins/api-versions.js';
import metrics from './plugins/metrics.js';
import readiness from './plugins/readiness.js';
import requestLog from './plugins/request-log.js';
import responseHeaders, { securityHeaders, setsHeaders } from './plugins/response-headers.js';
import methodNotAllowed from './plugins/method-not-allowed.js';
import routeMethods from './plugins/route-methods.js';
import wellFormedText from './plugins/well-formed-text.js';
import docPages from './routes/doc-pages.js';
import routes from './routes/index.js';
import { validatorCompiler } from './schemas/compiler.js';
import { completeDocument, markRateLimited } from './schemas/openapi-document.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppOverrides {
  /** Where log lines go (tests capture them); stdout otherwise. */
  logStream?: DestinationStream;
  clock?: Clock;
  keyCacheTtlMs?: number;
  /** How often the retention job runs, expired Idempotency-Key records included (tests shorten it). */
  retentionIntervalMs?: number;
  /** How long an instance shares a list's probed version (list-cache.ts); tests that write then read at once pass 0. */
  listVersionShareMs?: number;
  /** How long one readiness probe answers every `/health/ready` (readiness.ts); tests that cut a dependency pass 0. */
  readinessShareMs?: number;
  /** The supported API versions; tests pass a registry of their own (a deprecated version, say). */
  apiVersions?: VersionRegistry;
}

const API_DESCRIPTION = `Public integration API of the garage-management system.

Authentication: send the integration's key in the \`x-api-key\` header. The \`apiKey\` query parameter is accepted
but discouraged; responses to such requests carry \`Deprecation: true\` (and a \`Link\` with \`rel="deprecation"\`).

Errors: every error body is \`{"error": "...", "code": "..."}\`; 400 validation errors add \`details\`
(\`[{"path": "/limit", "message": "..."}]\`, paths are JSON pointers).

Lists: \`limit\` (1–500, default 100), opaque \`cursor\` from \`nextCursor\`, \`updatedSince\` (RFC 3339).
Every list and item GET sends a strong \`ETag\` and \`Cache-Control: private, no-cache\`; a matching
\`If-None-Match\` gives 304. Where the operator lets shared caches keep the public showcase, fleet reads by
\`garageSlug\` (no key) answer \`Cache-Control: public, max-age=30, stale-while-revalidate=60\` (or the operator's
\`max-age\`) and \`Vary: x-api-key, garage-version\`, so that a CDN or reverse proxy may serve them; their errors then
send \`Cache-Control: no-store\`.
Every response carries \`x-request-id\`.

Rate limits, per client IP and endpoint: lead 5 per minute, quote accept and refuse 5 per 15 minutes each (every
request counts, errors included). Limited endpoints send \`ratelimit-limit\`, \`ratelimit-remaining\` and
\`ratelimit-reset\` (seconds); a 429 \`RATE_LIMITED\` sends \`Retry-After\` (seconds).

Guides, beside this reference: [Quick start](/api/public/docs/connectors/quick-start),
[Catalog and stock sync](/api/public/docs/connectors/catalog-and-stock),
[Booking](/api/public/docs/connectors/booking), [Webhooks](/api/public/docs/connectors/webhooks),
[Leads and quotes](/api/public/docs/connectors/leads-and-quotes),
[Errors and retries](/api/public/docs/connectors/errors-and-retries),
[The contract](/api/public/docs/reference/contract).`;

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Fastify's types leave out the hop count that its proxy-addr accepts; the function form says the same. */
const trustProxyOption = (value: TrustProxy) => (typeof value === 'number' ? (_address: string, hop: number) => hop < value : value);

/**
 * Builds the app without listening, in fastify/demo's order, each step one plugin with one job:
 * 1. framework plugins (the headers of every response, API documentation) and HTTP conventions (errors, readiness,
 *    metrics);
 * 2. infrastructure (composition/): the database, Redis;
 * 3. domain wiring (composition/): the use cases, the demo seed, background jobs;
 * 4. request pipeline: rate limits, authentication, the list cache;
 * 5. routes.
 */
export const buildApp = async (config: Config, overrides: AppOverrides = {}): Promise<App> => {
  const versions = overrides.apiVersions ?? API_VERSIONS;
  /** The OpenAPI document of each supported version, written by `transformObject` the first time one is asked for. */
  const documents = new Map<string, unknown>();
  const app = Fastify<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger>({
    loggerInstance: createLogger(config.logLevel, overrides.logStream),
    genReqId: requestIdOf,
    requestIdHeader: false,
    logController: new OneLinePerRequest(),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    // Slow clients cannot hold a connection forever; keep-alive outlives typical load-balancer idle timeouts.
    requestTimeout: 30_000,
    connectionTimeout: 60_000,
    keepAliveTimeout: 72_000,
    // Requests arriving during shutdown are served rather than answered with Fastify's own 503 body.
    return503OnClosing: false,
    // Opening embedded Postgres (WASM) and migrating can take a while on a cold, busy machine.
    pluginTimeout: 120_000,
    clientErrorHandler,
    frameworkErrors: (err, request, reply) => {
      const { status, body } = frameworkErrorHandler(err);
      request.log.info({ code: body.code }, body.error);
      // Said here too: a request refused this early is answered before the version plugin's hooks run.
      void (reply as FastifyReply).code(status).header('x-request-id', request.id).header('garage-version', versions.oldest).send(body);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  // First, so that it sees every route (405 with `Allow` for a known path and a wrong method, added last).
  await app.register(routeMethods);

  await app.register(responseHeaders);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Garage public integration API',
        version: '1.0.0',
        description: API_DESCRIPTION,
        license: { name: 'Proprietary: for the integrations of the garages that use it', identifier: 'LicenseRef-Proprietary' },
      },
      // Relative: the document is served by the API it describes, wherever that runs.
      servers: [{ url: '/', description: 'This API' }],
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      },
    },
    transform: markRateLimited as never,
    // The generated document is OpenAPI 3.1 (`openapi` above), whose paths completeDocument walks: once per supported
    // version, the newest being what `app.swagger()` returns.
    transformObject: (document) => {
      const generated = JSON.stringify('openapiObject' in document ? document.openapiObject : document.swaggerObject);
      for (const { version } of versions.versions) documents.set(version, completeDocument(JSON.parse(generated), version, versions));
      return documents.get(versions.latest) as never;
    },
  });
  app.decorate('openapiDocument', (version: string) => {
    app.swagger();
    return documents.get(version);
  });
  // In a scope of its own with @fastify/helmet (`reply.helmet()`), whose per-request hooks then stay off the API.
  await app.register(async (docs) => {
    // A page, unlike the API's JSON: helmet's defaults for pages (swagger-ui sets its own CSP).
    docs.addHook('onRequest', setsHeaders(securityHeaders()));
    await docs.register(fastifyHelmet, { global: false });
    await docs.register(swaggerUi, {
      routePrefix: '/api/public/docs',
      staticCSP: true,
      // The product's name and stylesheet, as on the guides and the portal, not the framework's.
      logo: { type: 'image/svg+xml', content: LOGO_SVG, href: '/api/public/docs', target: '_self' },
      theme: { title: `API reference · ${PRODUCT_NAME}`, css: [{ filename: 'garage.css', content: STYLESHEET }] },
      // One document per supported version, newest first: the page's top bar lets the reader pick.
      uiConfig: {
        urls: [...versions.versions].reverse().map(({ version }) => ({ url: `/api/public/openapi.json?version=${version}`, name: version })),
        'urls.primaryName': versions.latest,
      } as never,
    });
    await docs.register(docPages);
  });

  await app.register(gracefulClose);
  await app.register(httpConventions, { publicMaxAgeSeconds: config.publicCacheMaxAgeSeconds });
  await app.register(errorHandler);
  await app.register(wellFormedText);
  await app.register(readiness, { probeShareMs: overrides.readinessShareMs });
  await app.register(metrics);
  await app.register(healthMetrics);
  await app.register(apiVersions, { registry: versions });

  await app.register(storage, { config });
  await app.register(redis, { config });

  await app.register(useCases, {
    clock: overrides.clock,
    keyCacheTtlMs: overrides.keyCacheTtlMs,
    webhookAllowedNetworks: config.webhookAllowedNetworks,
  });
  await app.register(demo, { clock: overrides.clock });
  await app.register(dataRetention, { config, clock: overrides.clock, intervalMs: overrides.retentionIntervalMs });
  await app.register(inProcessWebhooks, { config });
  await app.register(requestRecorder, { enabled: config.requestLog });

  // Needs the Redis client; before auth and routes, whose limits it installs.
  await app.register(rateLimits);
  await app.register(auth);
  // After auth (a cached page is served only to a request that passed it) and http-conventions (ETags).
  await app.register(listCache, { clock: overrides.clock, versionShareMs: overrides.listVersionShareMs });
  // After auth, whose principal says which integration a request belongs to.
  await app.register(requestLog);

  await app.register(routes);
  await app.register(methodNotAllowed);
  await app.register(portalUseCases, { clock: overrides.clock, webhookAllowedNetworks: config.webhookAllowedNetworks });
  await app.register(portal, { secureCookies: !config.portalInsecureCookies });
  return app;
};
