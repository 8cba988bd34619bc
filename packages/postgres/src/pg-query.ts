import type pg from 'pg';

/**
 * A statement on a pg client, through pg's callback form: every query of this adapter goes through here, never
 * through pg's promise form (`client.query(sql)` without a callback). That form sets a query's callback after making
 * the query; with pg 8.23 on Node 24, once a process has run a single query so, the rows of its queries outlive the
 * young generation's collections and wait for a major one, whatever form those later queries take: a sync page's
 * 40 KB of rows were all promoted, and the API spent some 23 % more CPU per page (docs/operators/performance.md,
 * "Query results and the collector"). test/query-results-die-young.test.ts measures both forms and fails if either
 * stops holding.
 */
export const queryByCallback = (client: pg.ClientBase, sql: string, parameters: readonly unknown[] = []): Promise<pg.QueryResult> =>
  new Promise((resolve, reject) => {
    client.query(sql, parameters as unknown[], (error: Error | undefined, result: pg.QueryResult) => (error ? reject(error) : resolve(result)));
  });
