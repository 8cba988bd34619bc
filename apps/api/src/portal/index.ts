import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance } from 'fastify';
import { securityHeaders, setsHeaders } from '../plugins/response-headers.js';
import { eventRoutes } from './events.js';
import { loginRoutes } from './login.js';
import { overviewRoutes } from './overview.js';
import { requestsRoutes } from './requests.js';
import { PORTAL_PATH } from './session.js';
import { versionRoutes } from './versions.js';
import { webhookRoutes } from './webhooks.js';

/** Templates and the stylesheet live beside the sources, not in them: the same folder from `src/` and from `dist/`. */
const VIEWS = fileURLToPath(new URL('../../portal/views/', import.meta.url));
const ASSETS = fileURLToPath(new URL('../../portal/assets/', import.meta.url));
export const ASSETS_PATH = '/assets/';

/**
 * A page's Content-Security-Policy: everything from this origin only, no inline script or style, no framing, forms
 * posting here only.
 */
const PORTAL_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
};

export interface PortalOptions {
  /** `Secure` on the portal's cookies; off only with PORTAL_INSECURE_COOKIES=true, for plain HTTP on a developer's machine. */
  secureCookies: boolean;
}

/**
 * The connector portal (docs/connectors/portal.md): server-rendered pages under /portal for the session's integration
 * only, forms that work without JavaScript, every state-changing request checked against CSRF, and the one stylesheet
 * the guides and the reference share, under /assets/. Registered in a scope of its own: its plugins and hooks never
 * run for the API.
 */
export default async function portal(app: FastifyInstance, { secureCookies }: PortalOptions) {
  app.decorateRequest('portalSession', null);
  // Pages, not operations of the API: kept out of its OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  // helmet's headers for pages with the portal's CSP, computed once (see `securityHeaders`), set over the API's own.
  app.addHook('onRequest', setsHeaders(securityHeaders({ contentSecurityPolicy: PORTAL_CSP })));
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyCsrf, {
    cookieKey: 'garage_portal_csrf',
    cookieOpts: { path: PORTAL_PATH, sameSite: 'strict', httpOnly: true, secure: secureCookies, signed: false },
  });
  await app.register(fastifyView, {
    engine: { eta: new Eta({ views: VIEWS, autoEscape: true, cache: true }) },
    templates: VIEWS,
  });
  await app.register(fastifyStatic, { root: ASSETS, prefix: ASSETS_PATH, index: false, cacheControl: true, maxAge: '1h' });

  // Pages are personal: never kept by a shared cache, and asked again on every visit.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith(PORTAL_PATH)) void reply.header('cache-control', 'no-store');
    return payload;
  });
  app.setErrorHandler(async (err: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (err.code?.startsWith('FST_CSRF')) {
      return reply.code(403).view('signed-out.eta', { title: 'Form expired', reason: 'csrf' });
    }
    const status = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) request.log.error({ err }, 'portal page failed');
    return reply.code(status).view('signed-out.eta', { title: 'Something went wrong', reason: 'error' });
  });

  await loginRoutes(app, { secureCookies });
  await overviewRoutes(app);
  await requestsRoutes(app);
  await webhookRoutes(app);
  await eventRoutes(app);
  await versionRoutes(app);
}
