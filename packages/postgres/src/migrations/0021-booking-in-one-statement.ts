import { sql, type Kysely } from 'kysely';
import { applySqlRules } from '../sql-rules/index.js';

/**
 * `book_if_room` (src/sql-rules/booking-days.ts): a booking's lock, capacity check, appointment, products and event in
 * one statement, so that a booking needs no transaction of its own. A new function, applied with the rules it calls;
 * the previous release never calls it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await applySqlRules(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Its only overload: the name alone names it.
  await sql`drop function book_if_room`.execute(db);
}

/** What `sqlRulesDigest()` named when this migration was written: a check compares it with today's. */
export const sqlRulesDigest = '1df2c951bd529801';
