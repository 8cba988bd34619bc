import type { FastifyRequest } from 'fastify';

/** The scheme and authority of an absolute-form request target (`GET http://host/path`, RFC 9112 §3.2.2). */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The path a request was routed by: the pattern of the route it matched, or, for one that matched none, its
 * target as the router reads it (an absolute-form target by its path). Never the raw URL, which a client may
 * spell so that a prefix test on it misses (`http://host/api/public/...`).
 */
export const routedPath = (request: FastifyRequest): string => request.routeOptions.url ?? request.url.replace(ABSOLUTE_FORM, '');
