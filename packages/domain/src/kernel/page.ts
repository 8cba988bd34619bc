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
 * Rows of a list read as the items a page is made of: each item is the row's JSON as the API sends it, rendered by
 * the store when the row was last written, so that a page is assembled from bytes without an object per row.
 */
export interface RenderedRows {
  items: string[];
  /** The keyset position of the row at `index`: only the last row of a page needs one, for its cursor. */
  positionAt(index: number): KeysetPosition;
}

/** A page of rendered items and the cursor of the next page, null on the last page. */
export interface RenderedPage {
  items: string[];
  nextCursor: string | null;
}

/** `fetchPage` for rendered rows: the same `limit + 1` read and the same cursor, from the last row kept. */
export const fetchRenderedPage = async (
  cursors: CursorCodec,
  scope: string,
  request: PageRequest,
  query: (after: KeysetPosition | null, limit: number) => Promise<RenderedRows>,
): Promise<RenderedPage> => {
  const after = request.cursor === null ? null : cursors.decode(scope, request.cursor);
  const rows = await query(after, request.limit + 1);
  const more = rows.items.length > request.limit;
  return {
    items: more ? rows.items.slice(0, request.limit) : rows.items,
    nextCursor: more ? cursors.encode(scope, rows.positionAt(request.limit - 1)) : null,
  };
};
