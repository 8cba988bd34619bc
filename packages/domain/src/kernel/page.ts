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
