import type { CursorCodec } from './cursor.js';
import type { KeysetPosition } from './pagination.js';

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * What a list use case reads its pages from: the rows of one list, in its order, strictly after `query.after`, at most
 * `query.limit`. `T` is the item as the reader hands it out: the domain's object (a repository's reader), or another
 * representation of the same rows that an adapter keeps for its own transport.
 */
export interface Listing<Q, T> {
  list(query: Q): Promise<T[]>;
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
