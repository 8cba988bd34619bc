/** A page of a list (docs/reference/contract.md §4.2). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** Every item of a list, page after page; `.pages()` gives whole pages instead. */
export interface ListIterable<T> extends AsyncIterable<T> {
  pages(): AsyncIterable<Page<T>>;
}

/** Follows `nextCursor` from the first page (`cursor` null) until the last. */
export const listOf = <T>(fetchPage: (cursor: string | null) => Promise<Page<T>>): ListIterable<T> => {
  const pages = async function* () {
    let cursor: string | null = null;
    do {
      const page = await fetchPage(cursor);
      yield page;
      cursor = page.nextCursor;
    } while (cursor !== null);
  };
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.data;
    },
  };
};
