import type { Mode, RequestLog, RequestRecord } from '@garage/domain';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, RequestLogTable } from '../schema.js';
import { statusWithin } from './status-range.js';

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

/**
 * The reads of `request_log`, a row per record, where the release before chunks wrote (migration 0019). Its records
 * are read beside the chunks' until retention has emptied the table; a later release drops both. The caller has
 * checked that the integration's id is a UUID.
 */
export const makeLegacyRequestLogReads = (db: Kysely<Database>): Pick<RequestLog, 'list' | 'findByRequestId'> => ({
  async list({ integrationId, mode, limit, after, status, route, since }) {
    const rows = await db
      .selectFrom('request_log')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('mode', '=', mode)
      .$if(status !== null, (q) => q.where(statusWithin(sql.ref('status'), status!)))
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
});
