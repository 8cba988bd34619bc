import type { CursorCodec } from './cursor.js';
import type { KeysetPosition } from './pagination.js';

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface PageRequest {
  limit: number;
  cursor: string | null;
}

/**
 * Runs a keyset query for one page: asks for `limit + 1` rows so that the presence of a next page is known without
 * a count, and signs the position of the last returned row as the next cursor.
 */
export const fetchPage = async <T>(
  cursors: CursorCodec,
  scope: string,
  request: PageRequest,
  positionOf: (item: T) => KeysetPosition,
  query: (after: KeysetPosition | null, limit: number) => Promise<T[]>,
): Promise<Page<T>> => {
  const after = request.cursor === null ? null : cursors.decode(scope, request.cursor);
  const rows = await query(after, request.limit + 1);
  const data = rows.slice(0, request.limit);
  const last = data[data.length - 1];
  return {
    data,
    nextCursor: rows.length > request.limit && last ? cursors.encode(scope, positionOf(last)) : null,
  };
};

/**
 * An entity as its rendered list item parses: each item is the entity as JSON, as the API sends it (times as RFC 3339
 * strings), rendered by the store when the row was last written, so that a page is assembled from bytes without an
 * object per row.
 */
export type Rendered<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] };

/** A page of rendered items and the cursor of the next page, null on the last page. */
export interface RenderedPage {
  items: string[];
  nextCursor: string | null;
}

/**
 * `fetchPage` for rendered items: the same `limit + 1` read and the same cursor. Only the last item kept is parsed, for
 * the position its cursor names; its times carry the milliseconds a cursor keeps.
 */
export const fetchRenderedPage = async <T>(
  cursors: CursorCodec,
  scope: string,
  request: PageRequest,
  positionOf: (item: Rendered<T>) => KeysetPosition,
  query: (after: KeysetPosition | null, limit: number) => Promise<string[]>,
): Promise<RenderedPage> => {
  const { data, nextCursor } = await fetchPage(cursors, scope, request, (item: string) => positionOf(JSON.parse(item) as Rendered<T>), query);
  return { items: data, nextCursor };
};
