import { sql, type Kysely } from 'kysely';

/**
 * - `idempotency_keys.response_body` becomes text: a replay must send the JSON that was stored, and jsonb would
 *   reorder its keys and normalise its numbers.
 * - Appointments last at most 480 minutes (docs/reference/contract.md §4.1). The overlap query relies on it to scan only the
 *   appointments that start less than 480 minutes before the range, so the database states it too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys alter column response_body type text using response_body::text`.execute(db);
  await db.schema
    .alterTable('appointments')
    .addCheckConstraint(
      'appointments_duration_bounded',
      sql`ends_at > starts_at and ends_at <= starts_at + interval '480 minutes'`,
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('appointments').dropConstraint('appointments_duration_bounded').execute();
  await sql`alter table idempotency_keys alter column response_body type jsonb using response_body::jsonb`.execute(db);
}
