import { CompiledQuery } from 'kysely';

/**
 * A statement whose text never changes, typed by the rows it returns: each call only binds its parameters. For what
 * every request runs, the query builder (its `sql` tag too) spent more building and compiling the text than Postgres
 * spent running it (issue 18); a fixed text is also prepared once per connection (prepared-statements.ts).
 */
export const fixedQuery =
  <Row>(text: string) =>
  (parameters: readonly unknown[]): CompiledQuery<Row> =>
    CompiledQuery.raw(text, [...parameters]) as CompiledQuery<Row>;
