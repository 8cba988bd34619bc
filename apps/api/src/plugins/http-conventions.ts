import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A cacheable GET (docs/reference/contract.md §4.2): a 200 gets a strong ETag (hash of the exact body sent) and a
     * `Cache-Control` (private, or public for a `publicRead`); a matching `If-None-Match` turns it into a 304 without
     * a body.
     */
    etag?: boolean;
  }
  interface FastifyInstance {
    /** The `Cache-Control` of a public read's 200 and 304; null while the operator has not opted in. */
    publicCacheControl: string | null;
  }
  interface FastifyRequest {
    /**
     * The request carries no credential and reads public data (the fleet by `garageSlug`), so its answer is the same
     * for anyone who sends it: shared caches may keep a 200 or 304 for a while, and no error at all. Set by the
     * route's access hook before it looks anything up, so that its own refusals count too.
     */
    publicRead: boolean;
  }
}

export interface HttpConventionsOptions {
  /**
   * How long shared caches may serve a public read without asking again (config `publicCacheMaxAgeSeconds`). Null:
   * public reads are `private, no-cache` like every other read, as the contract has it by default.
   */
  publicMaxAgeSeconds?: number | null;
}

/**
 * Key-authenticated reads: a client may keep the body and must revalidate it before each reuse. Every reuse then goes
 * through the API, and the ETag hashes the exact bytes, so an answer at another `Garage-Version` is never taken for
 * this one: `Vary` need not name the version.
 */
const PRIVATE = 'private, no-cache';
/** An error answered to a public read: kept by no cache, so that a fix (a new garage, a vehicle back on sale) shows at once. */
const NO_STORE = 'no-store';

/**
 * Public reads: shared caches serve them for `max-age` seconds without asking the API, then, for as long again, while
 * one request revalidates (RFC 5861). Such caches key on the URL and on the request headers `Vary` names: `x-api-key`
 * (named by the access hook: the same URL with a key is a key-authenticated read) and `Garage-Version`, which picks the
 * shape of the body. Not `Origin`: every origin gets the same `Access-Control-Allow-Origin: *`. The request id is the
 * one header a stored answer cannot keep true (docs/operators/showcase-cache.md).
 */
export const publicCacheControl = (maxAgeSeconds: number) => `public, max-age=${maxAgeSeconds}, stale-while-revalidate=${2 * maxAgeSeconds}`;
const VERSION_HEADER = 'garage-version';

const addVary = (reply: FastifyReply, name: string): FastifyReply => {
  const vary = reply.getHeader('vary');
  if (vary === undefined) return reply.header('vary', name);
  const names = String(vary).toLowerCase().split(',').map((part) => part.trim());
  return names.includes(name) ? reply : reply.header('vary', `${String(vary)}, ${name}`);
};

const etagOf = (body: Buffer) => `"${hash('sha256', body, 'base64url')}"`;

/** RFC 9110 §13.1.2: `*` or a list of entity tags, compared weakly. */
export const matches = (ifNoneMatch: string, etag: string) => {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
};

/** The headers of a cacheable response, 200 or 304 alike. */
const validators = (reply: FastifyReply, etag: string): FastifyReply => {
  reply.header('etag', etag);
  const shared = reply.request.publicRead ? reply.server.publicCacheControl : null;
  if (shared === null) return reply.header('cache-control', PRIVATE);
  return addVary(reply.header('cache-control', shared), VERSION_HEADER);
};

/**
 * Answers 304 for a page whose ETag the request's `If-None-Match` matches (the list cache, which knows the ETag
 * without the bytes). Without a body, so without a content type to remove: deleting a header turns the reply's header
 * object into a slow dictionary.
 */
export const sendNotModified = (reply: FastifyReply, etag: string) => validators(reply, etag).code(304).send();

const conditionalGet = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  if (reply.statusCode >= 400 && request.publicRead && reply.server.publicCacheControl !== null) reply.header('cache-control', NO_STORE);
  if (reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
  // Encoded once: the hash, the socket and the list cache all take these bytes (a string would be encoded by each).
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
  // A page served from the list cache brings the ETag it was stored with: the same bytes, no need to hash them again.
  const etag = (reply.getHeader('etag') as string | undefined) ?? etagOf(body);
  validators(reply, etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch === undefined || !matches(ifNoneMatch, etag)) return body;
  reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return '';
};

/**
 * Conventions every response follows: conditional GETs for routes that ask for them, and JSON as the only request body
 * format (the built-in text/plain parser would accept other bodies, which must get 415 instead). The request id header
 * is set with the security headers (response-headers.ts).
 */
export default fp(
  async (app: FastifyInstance, { publicMaxAgeSeconds = null }: HttpConventionsOptions) => {
    app.decorate('publicCacheControl', publicMaxAgeSeconds === null ? null : publicCacheControl(publicMaxAgeSeconds));
    app.decorateRequest('publicRead', false);
    app.removeContentTypeParser('text/plain');
    // A callback hook: it never waits, and every request runs it.
    app.addHook('onSend', (request, reply, payload, done) => {
      done(null, request.routeOptions.config?.etag === true ? conditionalGet(request, reply, payload) : payload);
    });
  },
  { name: 'http-conventions' },
);
