import { isUuid, type Mode, type RequestLog, type RequestRecord } from '@garage/domain';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, RequestLogTable } from '../schema.js';

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
    await db
      .insertInto('request_log')
      .values(
        records.map((r) => ({
          integration_id: r.integrationId,
          mode: r.mode,
          request_id: r.requestId,
          created_at: r.receivedAt,
          method: r.method,
          route: r.route,
          path: r.path,
          query_parameters: r.queryParameters,
          status: r.status,
          error_code: r.errorCode,
          api_version: r.apiVersion,
          duration_ms: r.durationMs,
          error_body: r.errorBody === null ? null : JSON.stringify(r.errorBody),
        })),
      )
      .execute();
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
