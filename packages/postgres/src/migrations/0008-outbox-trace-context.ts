import { sql, type Kysely } from 'kysely';

/**
 * `webhook_events.trace_parent`: the W3C `traceparent` of the work that wrote the event, when tracing was on, so that
 * the delivery attempts, in whichever process and however late, join that trace (docs/operators/observability.md).
 * Null for events written with tracing off, and for every event written before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_events add column trace_parent text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_events drop column trace_parent`.execute(db);
}
