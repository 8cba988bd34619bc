import { isUuid, type Mode, type NewRequestRecord, type RequestLog, type RequestRecord } from '@garage/domain';
import { CompiledQuery, sql, type Kysely, type Selectable } from 'kysely';
import type { Database, RequestLogTable } from '../schema.js';

/**
 * What jsonb refuses in a string: NUL, and a surrogate without its pair. JSON.stringify writes both as `\u` escapes,
 * in lower case; a record without any `\u` escape (nearly all) is not searched further.
 */
const REFUSED_BY_JSONB = /\\u0000|\\ud[89a-f]/;
// NUL is what this looks for: the control character is meant.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const storable = (_key: string, value: unknown) => (typeof value === 'string' ? value.replace(UNSTORABLE, '\uFFFD') : value);

/** How a value travels in the batch's JSON and what Postgres makes of it: the SQL reading element `i` of a row. */
const AS = {
  text: (i: number) => sql`r->>${sql.lit(i)}`,
  uuid: (i: number) => sql`(r->>${sql.lit(i)})::uuid`,
  smallint: (i: number) => sql`(r->>${sql.lit(i)})::smallint`,
  integer: (i: number) => sql`(r->>${sql.lit(i)})::integer`,
  /** Milliseconds since the epoch: a number costs the writer far less than a date's ISO text. */
  timestamptz: (i: number) => sql`to_timestamp((r->>${sql.lit(i)})::float8 / 1000)`,
  textArray: (i: number) => sql`array(select jsonb_array_elements_text(r->${sql.lit(i)}))`,
  /** A JSON null is SQL NULL, not the jsonb value `null`. */
  jsonb: (i: number) => sql`nullif(r->${sql.lit(i)}, 'null'::jsonb)`,
} as const;

/**
 * Each column the log writes, how it travels and where it comes from: the one list both the batch's rows and the
 * insert follow. A row is a JSON array, not an object: no key repeated per record, less for the API to write and for
 * Postgres to parse.
 */
const COLUMNS: readonly { name: string; as: keyof typeof AS; value: (r: NewRequestRecord) => unknown }[] = [
  { name: 'integration_id', as: 'uuid', value: (r) => r.integrationId },
  { name: 'mode', as: 'text', value: (r) => r.mode },
  { name: 'request_id', as: 'text', value: (r) => r.requestId },
  { name: 'created_at', as: 'timestamptz', value: (r) => r.receivedAt.getTime() },
  { name: 'method', as: 'text', value: (r) => r.method },
  { name: 'route', as: 'text', value: (r) => r.route },
  { name: 'path', as: 'text', value: (r) => r.path },
  { name: 'query_parameters', as: 'textArray', value: (r) => r.queryParameters },
  { name: 'status', as: 'smallint', value: (r) => r.status },
  { name: 'error_code', as: 'text', value: (r) => r.errorCode },
  { name: 'api_version', as: 'text', value: (r) => r.apiVersion },
  { name: 'duration_ms', as: 'integer', value: (r) => r.durationMs },
  { name: 'error_body', as: 'jsonb', value: (r) => r.errorBody },
];

const INSERT_COLUMNS = sql.join(COLUMNS.map((column) => sql.ref(column.name)));
const SELECTED_VALUES = sql.join(COLUMNS.map((column, i) => AS[column.as](i)));

/** A record as a batch carries it: its row of JSON, made once, when the record is handed over. */
export type EncodedRequestRecord = string & { readonly encodedRequestRecord: unique symbol };

/**
 * The record's row as JSON that jsonb accepts: a record naming a NUL or a lone surrogate (a path parameter, an echoed
 * value) has it replaced by U+FFFD rather than failing its whole batch. Checked on the text first: such records are
 * rare. A writer that buffers records encodes each as it arrives: one flat string waits for the batch instead of an
 * object graph the garbage collector would trace and copy while the previous batch is written.
 */
export const encodeRequestRecord = (record: NewRequestRecord): EncodedRequestRecord => {
  const row = COLUMNS.map((column) => column.value(record));
  const text = JSON.stringify(row);
  return (text.includes('\\u') && REFUSED_BY_JSONB.test(text) ? JSON.stringify(row, storable) : text) as EncodedRequestRecord;
};

/** The request log in Postgres, with the write a buffering writer uses: records it encoded as they came. */
export interface PostgresRequestLog extends RequestLog {
  appendEncoded(rows: readonly EncodedRequestRecord[]): Promise<void>;
}

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
export const makeRequestLog = (db: Kysely<Database>): PostgresRequestLog => {
  // The batch travels as one JSON document that Postgres turns into rows: for the API process that writes it, the
  // rows joined, the cheapest way to send a batch of rows (a parameter per value costs several times more to build).
  // The statement never changes: compiled once, not per batch, where compiling it was a third of the API's cost of a
  // write.
  const insert = sql`insert into request_log (${INSERT_COLUMNS}) select ${SELECTED_VALUES} from jsonb_array_elements(${'[]'}::jsonb) as r`.compile(db).sql;
  const appendEncoded = async (rows: readonly EncodedRequestRecord[]): Promise<void> => {
    if (rows.length === 0) return;
    await db.executeQuery(CompiledQuery.raw(insert, [`[${rows.join(',')}]`]));
  };
  return {
    appendEncoded,
    append: (records) => appendEncoded(records.map(encodeRequestRecord)),

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
  };
};
