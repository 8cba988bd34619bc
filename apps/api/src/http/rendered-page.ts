import type { RenderedPage } from '@garage/domain';
import type { FastifyReply } from 'fastify';
import { versionOf } from '../plugins/api-versions.js';

/**
 * The bytes of a list's 200, `Page(item)` of schemas/list.ts: the store's rendered items (each the JSON the item's
 * schema serialises to, docs/operators/performance.md "List pages") inside the page's envelope, keys in the schema's
 * order.
 */
export const pageBytes = (page: RenderedPage): Buffer =>
  Buffer.from(`{"data":[${page.items.join(',')}],"nextCursor":${JSON.stringify(page.nextCursor)}}`);

/**
 * Sends a page as bytes: a string or Buffer skips the route's serializer, and http-conventions hashes these very
 * bytes for the ETag. A request served at a version whose changes alter this list's 200 gets the page as an object
 * instead, which the versions' preSerialization hook takes back through their transforms like any other response; no
 * change touches a list yet, so today every page goes out as bytes.
 */
export const sendPage = (reply: FastifyReply, page: RenderedPage): FastifyReply => {
  const { request } = reply;
  const bytes = pageBytes(page);
  const route = `${request.method} ${request.routeOptions.url}`;
  if (reply.server.apiVersions.previousResponseSchema(versionOf(request), route, 200) !== undefined) {
    return reply.send(JSON.parse(bytes.toString()));
  }
  return reply.type('application/json; charset=utf-8').send(bytes);
};
