import { LRUCache } from 'lru-cache';
import pg from 'pg';

/**
 * Named statements per connection, at most: Postgres keeps each one's parse tree and plan for the connection's life,
 * so the number is bounded (past the bound, statements go unnamed as before).
 */
export const MAX_NAMED_STATEMENTS = 200;
/**
 * Texts remembered per connection as seen once, waiting for a second use to be named. Few: a statement in use comes
 * back long before 64 others have passed, and each text kept is memory (a probe of 500 garages writes some 10 KB).
 */
const SEEN_ONCE = 64;

/**
 * A pg client that names each statement the second time it runs it, so that Postgres parses and plans it once per
 * connection instead of on every call: kysely sends every statement unnamed, which made Postgres parse and plan each
 * statement of a booking again on every booking. On the bench (issue 18) naming took a third of Postgres' CPU off a
 * booking and three fifths off a lookup by SKU.
 *
 * A text seen once stays unnamed: kysely writes a new text for each length of an `in (…)` list, and naming those
 * would fill the connection with statements used once. Only the `(text, values)` calls that kysely makes are named;
 * every other form (a text alone, a config object, a cursor, a callback) is passed on as it is. pg itself keeps the
 * name and text of each parsed statement and parses again after a failed Parse. psycopg 3 prepares the same way (after
 * a threshold of runs, up to a maximum per connection). Through PgBouncer in transaction mode, named statements need
 * version 1.21 or later with `max_prepared_statements` set.
 */
export class PreparingClient extends pg.Client {
  readonly #names = new Map<string, string>();
  readonly #seenOnce = new LRUCache<string, true>({ max: SEEN_ONCE });

  override query(...args: any[]): any {
    const [text, values, callback] = args;
    if (typeof text === 'string' && Array.isArray(values) && callback === undefined) {
      const name = this.#nameOf(text);
      if (name !== undefined) {
        // A Query made from the text and named afterwards: given a config object, pg copies it property by property
        // (~2 % of a booking's API CPU).
        return new Promise((resolve, reject) => {
          const query = new pg.Query(text, values, (err: Error | undefined, result: unknown) => (err ? reject(err) : resolve(result)));
          // pg's Query reads `name` when it is sent; its typings leave the field out.
          (query as unknown as { name: string }).name = name;
          super.query(query);
        });
      }
    }
    return Reflect.apply(super.query, this, args);
  }

  #nameOf(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known !== undefined || this.#names.size >= MAX_NAMED_STATEMENTS) return known;
    if (!this.#seenOnce.has(text)) {
      this.#seenOnce.set(text, true);
      return undefined;
    }
    this.#seenOnce.delete(text);
    const name = `garage_${this.#names.size + 1}`;
    this.#names.set(text, name);
    return name;
  }
}
