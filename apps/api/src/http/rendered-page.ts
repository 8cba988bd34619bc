import type { Page as DomainPage } from '@garage/domain';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { versionOf } from '../plugins/api-versions.js';
import { Page } from '../schemas/list.js';

/** The envelope of `Page(item)` around its items, written once from the schema's keys in their order. */
const [ITEMS_KEY, CURSOR_KEY, ...others] = Object.keys(Page(Type.Any()).properties);
if (ITEMS_KEY === undefined || CURSOR_KEY === undefined || others.length > 0) {
  throw new Error('Page(item) must hold two properties, the items and then the next cursor, for pageBytes to write it');
}
const OPEN = `{${JSON.stringify(ITEMS_KEY)}:[`;
const BETWEEN = `],${JSON.stringify(CURSOR_KEY)}:`;
const ITEMS_AT = Buffer.byteLength(OPEN);

/**
 * The bytes of a list's 200, `Page(item)` of schemas/list.ts: the store's rendered items (each the JSON the item's
 * schema serialises to, docs/operators/performance.md "List pages") inside the page's envelope, keys in the schema's
 * order. The items, joined, are encoded into the page's buffer beside the envelope: the joined string concatenated
 * with the envelope, then encoded, was another copy of the page on V8's heap for the young generation to collect.
 */
export const pageBytes = (page: DomainPage<string>): Buffer => {
  const items = page.data.join(',');
  const tail = `${BETWEEN}${JSON.stringify(page.nextCursor)}}`;
  const tailAt = ITEMS_AT + Buffer.byteLength(items);
  const bytes = Buffer.allocUnsafe(tailAt + Buffer.byteLength(tail));
  bytes.write(OPEN);
  bytes.write(items, ITEMS_AT);
  bytes.write(tail, tailAt);
  return bytes;
};

/**
 * Sends a page as bytes: a string or Buffer skips the route's serializer, and http-conventions hashes these very
 * bytes for the ETag. A request served at a version whose changes alter this list's 200 gets the page as an object
 * instead, which the versions' preSerialization hook takes back through their transforms like any other response; no
 * change touches a list yet, so today every page goes out as bytes.
 */
export const sendPage = (reply: FastifyReply, page: DomainPage<string>): FastifyReply => {
  const { request } = reply;
  const bytes = pageBytes(page);
  const route = `${request.method} ${request.routeOptions.url}`;
  if (reply.server.apiVersions.previousResponseSchema(versionOf(request), route, 200) !== undefined) {
    return reply.send(JSON.parse(bytes.toString()));
  }
  return reply.type('application/json; charset=utf-8').send(bytes);
};
