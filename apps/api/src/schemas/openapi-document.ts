import type { VersionRegistry } from '@garage/versions';
import { webhookPayloads } from './webhook-events.js';

/**
 * What the route schemas cannot say, added to the generated OpenAPI document in one place (docs/reference/contract.md §7): the
 * response headers every operation sends, 405 on every operation (a known path with another method), 429 on every
 * key-authenticated one (the failed-authentication throttle), the request bodies that may be omitted, the deprecated
 * query key as a security scheme, tags, named component schemas and the webhooks a receiver gets.
 */

/** Operations whose body is optional (an empty or absent body is read as `{}`, see http/optional-body.ts). */
export const OPTIONAL_BODY_OPERATIONS = new Set(['acceptQuote', 'refuseQuote', 'cancelAppointment']);

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  'x-rate-limited'?: boolean;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: Json & { required?: boolean };
  responses?: Record<string, Json & { headers?: Json; content?: Json }>;
}

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

const REQUEST_ID = header('The request id: the `x-request-id` sent, when it is 1–128 characters of `[A-Za-z0-9._-]`, else a new one');
const ETAG = header('Strong entity tag of the body; send it back as `If-None-Match` to get 304 when nothing changed');
const CONDITIONAL = {
  etag: ETAG,
  'cache-control': header('`private, no-cache`: keep the body, revalidate it with `If-None-Match`'),
};
/** Operations that also answer without a key (the fleet by `garageSlug`): those answers are public (http-conventions.ts). */
const PUBLIC_CONDITIONAL = {
  etag: ETAG,
  'cache-control': header(
    '`private, no-cache`: keep the body, revalidate it with `If-None-Match`. Where the operator lets shared caches ' +
      'keep the public showcase (`PUBLIC_CACHE_MAX_AGE_SECONDS`, 30 recommended), a read without a key (`garageSlug`) ' +
      'answers `public, max-age=30, stale-while-revalidate=60` instead: public data that browsers, CDNs and reverse ' +
      'proxies may serve for `max-age` seconds without asking again, then revalidate with the ETag, serving the stale ' +
      'copy meanwhile for twice as long',
  ),
};
const PUBLIC_VARY = header(
  '`x-api-key`: the answer depends on the key; public answers (without a key, where shared caches may keep them) add `garage-version`, which selects the shape of the body',
);
const PUBLIC_ERROR = {
  'cache-control': header('`no-store` on an error answered without a key where shared caches may keep the public showcase: no cache may keep it'),
};
const RATE_LIMIT_STATE = {
  'ratelimit-limit': header('Requests allowed in the window', { type: 'integer' }),
  'ratelimit-remaining': header('Requests left in the window', { type: 'integer' }),
  'ratelimit-reset': header('Seconds until the window resets', { type: 'integer' }),
};
const REPLAYED = {
  'idempotent-replayed': header('`true` on a response replayed for a repeated Idempotency-Key, without running the request again'),
};
/** On every answer to a request made with a test key (docs/reference/contract.md §9); live answers do not send it. */
const GARAGE_MODE = {
  'garage-mode': header('`test` when the request was made with a test key and served from the integration\'s sandbox', { type: 'string', enum: ['test'] }),
};
const RATE_LIMITED = { 'retry-after': header('Seconds until the limit resets', { type: 'integer' }), ...RATE_LIMIT_STATE };

/**
 * For @fastify/swagger's `transform`: marks the operations of rate-limited routes (`config.rateLimit`), whose every
 * response carries the `ratelimit-*` headers; `completeDocument` declares them and removes the mark.
 */
export const markRateLimited = ({ schema, url, route }: { schema: Json; url: string; route: { config?: unknown } }) => ({
  schema: (route.config as { rateLimit?: unknown } | undefined)?.rateLimit ? { ...schema, 'x-rate-limited': true } : schema,
  url,
});

export const TAGS = [
  { name: 'catalog', description: 'Products and stock of the garage (keys with syncCatalog, syncStock)' },
  { name: 'fleet', description: 'Vehicles for sale: a key of the garage, or its public garageSlug' },
  { name: 'appointments', description: 'Availability, booking and the appointment lifecycle (keys with syncAppointments)' },
  { name: 'leads', description: 'Contact requests about a vehicle for sale, from garage websites' },
  { name: 'quotes', description: 'Quotes a customer accepts or refuses with the token of their link' },
  { name: 'webhooks', description: "Testing the integration's webhook endpoint, reading and retrying its deliveries" },
  { name: 'events', description: "The integration's event feed, to catch up after an outage" },
  { name: 'requests', description: "The integration's own requests of the last days, as the API saw them, to debug an error alone" },
  { name: 'Test helpers', description: 'What a garage does, done by a connector in its sandbox: with a test key only (docs/connectors/testing-your-integration.md)' },
];

const HEADER_KEY = 'apiKey';
const QUERY_KEY = 'apiKeyQuery';
export const SECURITY_SCHEMES = {
  [HEADER_KEY]: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The integration\'s API key' },
  [QUERY_KEY]: {
    type: 'apiKey',
    in: 'query',
    name: 'apiKey',
    description:
      'Deprecated: the same key in the query string, answered with `Deprecation: true` and a `Link` to the docs. Query strings end up in logs; send the header.',
  },
};

const DEPRECATED_KEY = {
  deprecation: header('`true` when the key came in the deprecated `apiKey` query parameter; `@<Unix seconds>` (RFC 9745) when the API version served is deprecated'),
  link: header('The documentation of the deprecation, when `Deprecation` is sent (both links, comma-separated, when both apply)'),
};

const REQUEST_ID_PARAMETER = {
  name: 'x-request-id',
  in: 'header',
  required: false,
  description: 'Your id for the request (1–128 characters of `[A-Za-z0-9._-]`), echoed in the response and the logs; one is made up otherwise',
  schema: { type: 'string', maxLength: 128 },
};
const IF_NONE_MATCH_PARAMETER = {
  name: 'if-none-match',
  in: 'header',
  required: false,
  description: 'The ETag of the copy you have: 304 without a body while it is still current',
  schema: { type: 'string' },
};

/** The request headers every operation reads (`x-request-id`) and those of conditional GETs (`If-None-Match`). */
const requestHeaders = (operation: Operation) => {
  const has = (name: string) => operation.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === name) ?? false;
  return [
    ...(has('x-request-id') ? [] : [REQUEST_ID_PARAMETER]),
    ...('304' in (operation.responses ?? {}) && !has('if-none-match') ? [IF_NONE_MATCH_PARAMETER] : []),
  ];
};

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The event id: the same on every retry; `id` in `GET /events`' },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt' },
  { name: 'webhook-signature', description: '`v1,<base64 HMAC-SHA256 of {id}.{timestamp}.{body}>`; during a secret rotation two, space-separated' },
].map((h) => ({ ...h, in: 'header', required: true, schema: { type: 'string' } }));

/** Standard Webhooks requests, one per event type, as OpenAPI 3.1 `webhooks`, with their bodies at `version`. */
const webhooks = (version: string, registry: VersionRegistry) =>
  Object.fromEntries(
    Object.entries(webhookPayloads(version, (type) => registry.previousEventSchema(version, type))).map(([type, payload]) => [
      type,
      {
        post: {
          operationId: `on${type.replace(/(^|\.)([a-z])/g, (_m, _dot: string, c: string) => c.toUpperCase())}`,
          summary: `The ${type} event`,
          tags: ['webhooks'],
          // The receiver checks the signature; no API key is involved.
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(payload)) } } },
          responses: {
            '200': { description: 'Any 2xx: received. 410: stop deliveries to this URL. Anything else, or no answer in 10 s: retried.' },
          },
        },
      },
    ]),
  );

const WORDS_IGNORED_IN_COMPARISON = new Set(['description', 'x-response-description']);
const shapeOf = (schema: unknown): string =>
  JSON.stringify(schema, (key, value: unknown) => (WORDS_IGNORED_IN_COMPARISON.has(key) ? undefined : value));

/**
 * Moves every schema with a `title` into `components.schemas` under that title and refers to it, so generated
 * clients get named types (`Product`, `Appointment`, `Error`…). Two different shapes under one title is a bug in the
 * route schemas, reported at generation rather than silently merged.
 */
const nameSchemas = (node: unknown, schemas: Record<string, unknown>): unknown => {
  if (Array.isArray(node)) return node.map((item) => nameSchemas(item, schemas));
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node as Json).map(([key, value]) => [key, nameSchemas(value, schemas)] as const);
  const copy = Object.fromEntries(entries) as Json;
  const title = copy.title;
  if (typeof title !== 'string' || copy.type === undefined) return copy;
  const { description, 'x-response-description': _ignored, ...named } = copy;
  const existing = schemas[title];
  if (existing === undefined) schemas[title] = named;
  else if (shapeOf(existing) !== shapeOf(named)) throw new Error(`two different schemas are titled ${title}`);
  return { $ref: `#/components/schemas/${title}`, ...(typeof description === 'string' ? { description } : {}) };
};

const VERSION_HEADER = 'garage-version';

/** `Garage-Version` on every operation: the request header that picks a version, the response header that says it. */
const versionHeaders = (registry: VersionRegistry, version: string) => {
  const supported = registry.versions.map((v) => v.version);
  const deprecated = registry.find(version)?.deprecation;
  return {
    parameter: {
      name: VERSION_HEADER,
      in: 'header',
      required: false,
      description:
        'The API version to serve this request at. Without it: the version the API key\'s integration is pinned to, or, ' +
        `without a key, the oldest supported version (${registry.oldest}). Another value gives 400 VERSION_UNSUPPORTED.`,
      schema: { type: 'string', enum: supported },
    },
    response: {
      [VERSION_HEADER]: header('The API version this response is served at', { type: 'string', enum: supported }),
      ...(deprecated
        ? {
            deprecation: header(`\`@<Unix seconds>\` (RFC 9745): version ${version} is deprecated`),
            sunset: header(`The HTTP-date (RFC 8594) after which version ${version} is no longer served`),
            link: header('`rel="deprecation"`: the changelog of the versions'),
          }
        : {}),
    },
  };
};

/** The router's pattern of an OpenAPI path: `/a/{id}` is `/a/:id`, the form the version changes name routes by. */
const routePattern = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/**
 * The generated (newest) document taken back to `version`: each response a newer version changed gets the schema it
 * had at `version`, as the change modules describe it.
 */
const responsesAt = (paths: Record<string, Record<string, unknown>>, version: string, registry: VersionRegistry) => {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, value] of Object.entries(item)) {
      for (const [status, response] of Object.entries((value as Operation).responses ?? {})) {
        const schema = registry.previousResponseSchema(version, `${method.toUpperCase()} ${routePattern(path)}`, Number(status));
        const content = response.content?.['application/json'] as Json | undefined;
        if (schema && content) content.schema = JSON.parse(JSON.stringify(schema));
      }
    }
  }
};

/**
 * For @fastify/swagger's `transformObject`, once per supported version: completes every operation of the generated
 * document, described at `version`.
 */
export const completeDocument = <D extends { paths?: Record<string, Record<string, unknown>>; info?: Json }>(
  document: D,
  version: string,
  registry: VersionRegistry,
): D => {
  responsesAt(document.paths ?? {}, version, registry);
  const versioning = versionHeaders(registry, version);
  document.info = { ...document.info, version };
  for (const item of Object.values(document.paths ?? {})) {
    for (const value of Object.values(item)) {
      const operation = value as Operation;
      if (!operation.responses) continue;
      if (operation.requestBody && operation.operationId && OPTIONAL_BODY_OPERATIONS.has(operation.operationId)) {
        operation.requestBody.required = false;
      }
      const keyAuthenticated = operation.security?.some((requirement) => HEADER_KEY in requirement) ?? false;
      const publicAlternative = keyAuthenticated && (operation.security?.some((requirement) => Object.keys(requirement).length === 0) ?? false);
      if (keyAuthenticated) {
        // The header key, or the same key in the deprecated query parameter; other alternatives (fleet's public
        // garageSlug, an empty requirement) stay.
        operation.security = operation.security!.flatMap((requirement) => (HEADER_KEY in requirement ? [requirement, { [QUERY_KEY]: [] }] : [requirement]));
        operation.parameters = operation.parameters?.filter((p) => !(p.in === 'query' && p.name === 'apiKey'));
      }
      const errorBody = operation.responses['400']?.content ?? operation.responses['500']?.content;
      if (errorBody && !operation.responses['405']) {
        operation.responses['405'] = {
          description: 'METHOD_NOT_ALLOWED: the path exists with other methods, listed in `Allow`',
          headers: { allow: header('The methods of the path') },
          content: errorBody,
        };
      }
      if (errorBody && keyAuthenticated && !operation.responses['429']) {
        operation.responses['429'] = {
          description: 'RATE_LIMITED: too many failed authentications from this address',
          content: errorBody,
        };
      }
      operation.parameters = [...(operation.parameters ?? []), ...requestHeaders(operation), versioning.parameter];
      const idempotent = operation.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') ?? false;
      const rateLimited = operation['x-rate-limited'] === true;
      delete operation['x-rate-limited'];
      const conditional = '304' in operation.responses;
      const publicReads = conditional && publicAlternative;
      for (const [status, response] of Object.entries(operation.responses)) {
        const validated = conditional && (status === '200' || status === '304');
        // 405 comes from the path's other methods, 429 only to a request with a key.
        const publicError = publicReads && Number(status) >= 400 && status !== '405' && status !== '429';
        response.headers = {
          ...response.headers,
          'x-request-id': REQUEST_ID,
          ...versioning.response,
          ...(validated ? (publicReads ? PUBLIC_CONDITIONAL : CONDITIONAL) : {}),
          ...(publicError ? PUBLIC_ERROR : {}),
          ...(status === '429' ? RATE_LIMITED : {}),
          ...(rateLimited ? RATE_LIMIT_STATE : {}),
          ...(idempotent ? REPLAYED : {}),
          ...(keyAuthenticated
            ? { vary: publicReads && validated ? PUBLIC_VARY : header('`x-api-key`: the answer depends on the key'), ...DEPRECATED_KEY, ...GARAGE_MODE }
            : {}),
        };
      }
    }
  }
  const schemas: Record<string, unknown> = {};
  const doc = document as D & { components?: Json; webhooks?: unknown; tags?: unknown };
  doc.paths = nameSchemas(doc.paths, schemas) as D['paths'];
  doc.webhooks = nameSchemas(webhooks(version, registry), schemas);
  doc.tags = TAGS;
  doc.components = {
    ...doc.components,
    securitySchemes: SECURITY_SCHEMES,
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
  };
  return document;
};
