import { sql, type Kysely } from 'kysely';

/**
 * What a chunk of the request log holds, for a filtered page to pass over the chunks that cannot match without
 * reading their records: the distinct statuses (`statuses`) and route patterns (`routes`) of its records. Without
 * them, `GET /requests?status=5xx` on an integration with no 5xx read and parsed every record it had.
 *
 * Nullable columns: chunks written before, and by the previous release during a rollout (its insert names its
 * columns), have none, and a filtered page reads such chunks whole, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table request_log_chunks add column statuses smallint[], add column routes text[]`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table request_log_chunks drop column statuses, drop column routes`.execute(db);
}
