import type pg from 'pg';

/**
 * A statement on a pg client, through pg's callback form: every query of this adapter goes through here, never
 * through pg's promise form (`client.query(sql)` without a callback). A process that has run one query in that form
 * keeps the rows of all its queries until a major collection (docs/operators/performance.md, "Query results and the
 * collector", has the measures); test/query-results-die-young.test.ts fails if either form stops behaving so.
 *
 * With a `name`, the statement is a named one (pg's documented `name` option): Postgres parses and plans it the first
 * time the connection runs it, and from then on only binds and executes it.
 */
export const queryByCallback = (client: pg.ClientBase, sql: string, parameters: readonly unknown[] = [], name?: string): Promise<pg.QueryResult> =>
  new Promise((resolve, reject) => {
    const callback = (error: Error | undefined, result: pg.QueryResult) => (error ? reject(error) : resolve(result));
    if (name === undefined) client.query(sql, parameters as unknown[], callback);
    else client.query({ name, text: sql, values: parameters as unknown[] }, callback);
  });

/**
 * Named statements per connection, at most: Postgres keeps each one's parse tree and plans for the connection's life.
 * Past the bound, statements go unnamed.
 */
export const MAX_NAMED_STATEMENTS = 200;
/** Texts remembered as seen once, waiting for a second run to be named: a statement in use comes back long before. */
const SEEN_ONCE = 64;

/** The names of one connection's statements. */
export interface StatementNames {
  /** The name to run `text` under, or undefined to run it unnamed. */
  nameOf(text: string): string | undefined;
  /** Every name given so far is dropped: the statements that run next are parsed again, under new names. */
  forget(): void;
}

/**
 * A text is named the second time its connection runs it: Kysely writes a new text for each length of an `in (…)`
 * list, and naming those would fill the connection with statements run once.
 */
export const makeStatementNames = (): StatementNames => {
  let names = new Map<string, string>();
  const seenOnce = new Set<string>();
  let given = 0;
  return {
    nameOf(text) {
      const known = names.get(text);
      if (known !== undefined || names.size >= MAX_NAMED_STATEMENTS) return known;
      if (!seenOnce.delete(text)) {
        seenOnce.add(text);
        // A Set iterates in insertion order: the oldest text goes first.
        if (seenOnce.size > SEEN_ONCE) seenOnce.delete(seenOnce.values().next().value as string);
        return undefined;
      }
      given += 1;
      const name = `garage_${given}`;
      names.set(text, name);
      return name;
    },
    forget() {
      names = new Map();
      seenOnce.clear();
    },
  };
};

/**
 * A named statement whose result columns changed since it was prepared: an expand migration added a column to a table
 * it reads with `*` (a `select *`, a `returning *`, a row expanded with `.*`). Postgres refuses to run it again
 * (`cached plan must not change result type`); parsed again, under a new name, it runs.
 */
export const isStaleStatement = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === '0A000' &&
  (error as { routine?: unknown }).routine === 'RevalidateCachedQuery';
