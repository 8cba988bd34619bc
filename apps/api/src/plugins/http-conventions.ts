import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A cacheable GET (docs/reference/contract.md §4.2): a 200 gets a strong ETag (hash of the exact body sent) and
     * `Cache-Control: private, no-cache`; a matching `If-None-Match` turns it into a 304 without a body.
     */
    etag?: boolean;
  }
}

const etagOf = (body: Buffer) => `"${hash('sha256', body, 'base64url')}"`;

/** RFC 9110 §13.1.2: `*` or a list of entity tags, compared weakly. */
export const matches = (ifNoneMatch: string, etag: string) => {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
};

/** The headers of a cacheable response, 200 or 304 alike. */
const validators = (reply: FastifyReply, etag: string) => reply.header('etag', etag).header('cache-control', 'private, no-cache');

/**
 * Answers 304 for a page whose ETag the request's `If-None-Match` matches (the list cache, which knows the ETag
 * without the bytes). Without a body, so without a content type to remove: deleting a header turns the reply's header
 * object into a slow dictionary.
 */
export const sendNotModified = (reply: FastifyReply, etag: string) => validators(reply, etag).code(304).send();

const conditionalGet = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
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
  async (app: FastifyInstance) => {
    app.removeContentTypeParser('text/plain');
    // A callback hook: it never waits, and every request runs it.
    app.addHook('onSend', (request, reply, payload, done) => {
      done(null, request.routeOptions.config?.etag === true ? conditionalGet(request, reply, payload) : payload);
    });
  },
  { name: 'http-conventions' },
);
