import { routedPath } from '../http/routed-path.js';
import { VersionUnsupportedError } from '../http/version-unsupported.js';
import { routesChangedBy, type ApiVersion, type Json, type VersionRegistry } from '@garage/versions';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    apiVersions: VersionRegistry;
    /** The OpenAPI document of a supported version; undefined for any other. */
    openapiDocument(version: string): unknown;
  }
  interface FastifyRequest {
    /** The supported version the `Garage-Version` header asked for; null without the header. */
    requestedVersion: string | null;
  }
}

export const VERSION_HEADER = 'garage-version';
/** Where the Link of a deprecated version points: the changelog, generated from the registry. */
export const CHANGELOG_PATH = '/api/public/changelog';
const PUBLIC_PREFIX = '/api/public';

/**
 * The version a request is served at (docs/reference/contract.md §8): the header's, else the pin of the integration whose key it
 * carried, else (public requests, and those refused before their key was read) the oldest supported version.
 */
export const versionOf = (request: FastifyRequest): string =>
  request.requestedVersion ?? request.principal?.apiVersion ?? request.server.apiVersions.oldest;

/** `Sunset` is an HTTP-date (RFC 8594); `Deprecation` a structured date, `@` and Unix seconds (RFC 9745). */
const deprecationHeaders = (deprecation: NonNullable<ApiVersion['deprecation']>) => ({
  deprecation: `@${Math.floor(Date.parse(`${deprecation.since}T00:00:00Z`) / 1000)}`,
  sunset: new Date(`${deprecation.sunsetAt}T00:00:00Z`).toUTCString(),
});

/** A deprecated version's Link joins the one the deprecated `apiKey` query parameter may have set already. */
const addDeprecationLink = (reply: FastifyReply) => {
  const link = `<${CHANGELOG_PATH}>; rel="deprecation"; type="text/markdown"`;
  const existing = reply.getHeader('link');
  reply.header('link', existing === undefined ? link : `${String(existing)}, ${link}`);
};

/**
 * API versions over HTTP (docs/connectors/versions.md): reads `Garage-Version` (an unsupported one is 400
 * VERSION_UNSUPPORTED), renders each response at the version it is served at through the registry's transforms,
 * says which version that was on every response under /api/public, adds the deprecation headers of a deprecated one,
 * and counts requests per version. Handlers return the newest shape only.
 */
export default fp(
  async (app: FastifyInstance, { registry }: { registry: VersionRegistry }) => {
    app.decorate('apiVersions', registry);
    app.decorateRequest('requestedVersion', null);
    const supported = registry.versions.map((v) => v.version);
    const requests = new Counter({
      name: 'http_requests_by_version_total',
      help: 'Requests under /api/public by the API version they were served at; deprecated is "true" for a deprecated version.',
      labelNames: ['version', 'deprecated'] as const,
      registers: [app.metrics.registry],
    });
    const isPublic = (request: FastifyRequest) => routedPath(request).startsWith(PUBLIC_PREFIX);

    app.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers[VERSION_HEADER];
      if (header === undefined || !isPublic(request)) return done();
      const asked = Array.isArray(header) ? header.join(', ') : header;
      if (!registry.find(asked)) {
        return done(
          new VersionUnsupportedError(
            `Garage-Version ${JSON.stringify(asked.slice(0, 40))} is not a supported version; supported: ${supported.join(', ')}`,
            supported.map((version) => ({ path: `/${VERSION_HEADER}`, message: version })),
          ),
        );
      }
      request.requestedVersion = asked;
      done();
    });

    // Handlers return the newest shape; an older version's body is the same data through every newer change's
    // transform. The route's serializer knows the newest schema only, so a transformed body is written as plain JSON.
    app.addHook('preSerialization', (request, reply, payload, done) => {
      const version = versionOf(request);
      const route = request.routeOptions.url;
      if (version === registry.latest || route === undefined || typeof payload !== 'object' || payload === null) return done(null, payload);
      const rendered = registry.renderResponse(version, `${request.method} ${route}`, reply.statusCode, payload as Json);
      if (rendered !== payload) reply.serializer(JSON.stringify);
      done(null, rendered);
    });

    // A change keyed by a route the app does not serve (renamed, or mistyped) would silently stop transforming its
    // responses: the app refuses to start instead.
    app.addHook('onReady', async () => {
      const unserved = routesChangedBy(registry).filter((route) => !app.hasRoute({ method: route.method as HTTPMethods, url: route.url }));
      if (unserved.length > 0) {
        throw new Error(`API version changes name routes this app does not serve: ${unserved.map((r) => `${r.method} ${r.url}`).join(', ')}`);
      }
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      if (!isPublic(request)) return done(null, payload);
      const version = versionOf(request);
      reply.header(VERSION_HEADER, version);
      const deprecation = registry.find(version)?.deprecation;
      if (deprecation) {
        reply.headers(deprecationHeaders(deprecation));
        addDeprecationLink(reply);
      }
      requests.inc({ version, deprecated: deprecation ? 'true' : 'false' });
      done(null, payload);
    });
  },
  { name: 'api-versions', dependencies: ['metrics'] },
);
