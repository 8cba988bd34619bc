import type pg from 'pg';

/**
 * A statement on a pg client, through pg's callback form: every query of this adapter goes through here, never
 * through pg's promise form (`client.query(sql)` without a callback). A process that has run one query in that form
 * keeps the rows of all its queries until a major collection (docs/operators/performance.md, "Query results and the
 * collector", has the measures); test/query-results-die-young.test.ts fails if either form stops behaving so.
 */
export const queryByCallback = (client: pg.ClientBase, sql: string, parameters: readonly unknown[] = []): Promise<pg.QueryResult> =>
  new Promise((resolve, reject) => {
    client.query(sql, parameters as unknown[], (error: Error | undefined, result: pg.QueryResult) => (error ? reject(error) : resolve(result)));
  });
