import { isUuid, type Mode, type NewRequestRecord, type RequestLog, type RequestRecord } from '@garage/domain';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, RequestLogTable } from '../schema.js';

/** A Postgres array literal of strings (`{"a","b"}`): a record's query names travel as one element of a text[] column. */
const arrayLiteral = (values: readonly string[]): string => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

const toRecord = (row: Selectable<RequestLogTable>): RequestRecord => ({
  id: row.id,
  integrationId: row.integration_id,
  mode: row.mode as Mode,
  requestId: row.request_id,
  receivedAt: row.created_at,
  method: row.method,
  route: row.route,
  path: row.path,
  queryParameters: row.query_parameters,
  status: row.status,
  errorCode: row.error_code,
  apiVersion: row.api_version,
  durationMs: row.duration_ms,
  errorBody: row.error_body ?? null,
});

/** The request log in Postgres (docs/reference/contract.md §10): one multi-row insert per batch. */
export const makeRequestLog = (db: Kysely<Database>): RequestLog => ({
  async append(records) {
    if (records.length === 0) return;
    // One parameter per column, each an array unnested into rows: a batch of 500 records is 13 parameters, not 6,500,
    // which keeps building and sending the statement cheap for the API process that writes it.
    const column = <T>(value: (r: NewRequestRecord) => T) => records.map(value);
    await sql`
      insert into request_log (integration_id, mode, request_id, created_at, method, route, path, query_parameters, status,
        error_code, api_version, duration_ms, error_body)
      select integration_id, mode, request_id, created_at, method, route, path, query_parameters::text[], status, error_code,
        api_version, duration_ms, error_body::jsonb
      from unnest(
        ${column((r) => r.integrationId)}::uuid[], ${column((r) => r.mode)}::text[], ${column((r) => r.requestId)}::text[],
        ${column((r) => r.receivedAt)}::timestamptz[], ${column((r) => r.method)}::text[], ${column((r) => r.route)}::text[],
        ${column((r) => r.path)}::text[], ${column((r) => arrayLiteral(r.queryParameters))}::text[],
        ${column((r) => r.status)}::smallint[], ${column((r) => r.errorCode)}::text[], ${column((r) => r.apiVersion)}::text[],
        ${column((r) => r.durationMs)}::integer[],
        ${column((r) => (r.errorBody === null ? null : JSON.stringify(r.errorBody)))}::text[]
      ) as r (integration_id, mode, request_id, created_at, method, route, path, query_parameters, status, error_code,
        api_version, duration_ms, error_body)`.execute(db);
  },

  async list({ integrationId, mode, limit, after, status, route, since }) {
    if (!isUuid(integrationId)) return [];
    const rows = await db
      .selectFrom('request_log')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('mode', '=', mode)
      .$if(status !== null, (q) => q.where('status', '>=', status!.min).where('status', '<=', status!.max))
      .$if(route !== null, (q) => q.where('route', '=', route!))
      .$if(since !== null, (q) => q.where('created_at', '>=', since!))
      .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after!.sortValue, after!.id))))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toRecord);
  },

  async findByRequestId(integrationId, mode, requestId) {
    if (!isUuid(integrationId)) return null;
    const row = await db
      .selectFrom('request_log')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('mode', '=', mode)
      .where('request_id', '=', requestId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  },

  async purgeBefore(cutoff, batchSize) {
    // A bounded batch through the created_at index: each delete holds its row locks briefly.
    const result = await sql<{ id: string }>`
      delete from request_log where id in (
        select id from request_log where created_at < ${cutoff} order by created_at limit ${batchSize}
      )`.execute(db);
    return Number(result.numAffectedRows ?? 0);
  },
});
