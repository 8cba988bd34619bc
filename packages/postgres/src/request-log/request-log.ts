import { isUuid, type Mode, type NewRequestRecord, type RequestLog, type RequestRecord } from '@garage/domain';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, RequestLogTable } from '../schema.js';

/** What jsonb refuses in a string: NUL, and a surrogate without its pair (both reach JSON as `\u` escapes). */
const REFUSED_BY_JSONB = /\\u0000|\\ud[89a-f]/i;
// NUL is what this looks for: the control character is meant.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const storable = (_key: string, value: unknown) => (typeof value === 'string' ? value.replace(UNSTORABLE, '\uFFFD') : value);

/**
 * The batch as JSON that jsonb accepts: a record naming a NUL or a lone surrogate (a path parameter, an echoed value)
 * has it replaced by U+FFFD rather than failing the whole batch. Checked on the text first: such records are rare.
 */
const batchJson = (records: readonly NewRequestRecord[]): string => {
  const text = JSON.stringify(records);
  return REFUSED_BY_JSONB.test(text) ? JSON.stringify(records, storable) : text;
};

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
    // The batch travels as one JSON document that Postgres turns into rows: for the API process that writes it, one
    // JSON.stringify, the cheapest way to send a batch of rows (a parameter per value costs several times more to build).
    await sql`
      insert into request_log (integration_id, mode, request_id, created_at, method, route, path, query_parameters, status,
        error_code, api_version, duration_ms, error_body)
      select "integrationId", mode, "requestId", "receivedAt", method, route, path, "queryParameters", status, "errorCode",
        "apiVersion", "durationMs", "errorBody"
      from jsonb_to_recordset(${batchJson(records)}::jsonb) as r ("integrationId" uuid, mode text, "requestId" text,
        "receivedAt" timestamptz, method text, route text, path text, "queryParameters" text[], status smallint,
        "errorCode" text, "apiVersion" text, "durationMs" integer, "errorBody" jsonb)`.execute(db);
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

});
