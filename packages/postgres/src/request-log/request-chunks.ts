import { randomUUID } from 'node:crypto';
import { uuidV7Time, type Mode, type NewRequestRecord, type RequestRecord } from '@garage/domain';
import { sql, type RawBuilder } from 'kysely';

/**
 * The request log is kept as chunks (migration 0022): a row of `request_log_chunks` holds the records of one
 * integration and mode that one batch wrote within one span of time, as one JSON text. Postgres stores that text as
 * it comes, without parsing it, and parses a chunk only when a page or a lookup reads it.
 */

/** A chunk's records are never further apart than this: the span a lookup by a request id's time reads around it. */
export const CHUNK_SPAN_MS = 10_000;

/**
 * How far the time a UUIDv7 request id carries may be from its record's `receivedAt` for the time to find it: the API
 * reads both from one clock, a request apart.
 */
export const ID_TIME_TOLERANCE_MS = 1000;

/** A record's fields, in the order of the JSON array that is its row: no key repeated per record. */
const FIELDS = [
  'id',
  'requestId',
  'receivedAt',
  'method',
  'route',
  'path',
  'queryParameters',
  'status',
  'errorCode',
  'apiVersion',
  'durationMs',
  'errorBody',
] as const satisfies readonly (keyof RequestRecord)[];

type Field = (typeof FIELDS)[number];
const AT = Object.fromEntries(FIELDS.map((field, i) => [field, i])) as Record<Field, number>;

/** The SQL reading a field of a row (`jsonb` element `row`) as text. */
export const rowField = (row: RawBuilder<unknown>, field: Field): RawBuilder<string> => sql<string>`(${row}->>${sql.lit(AT[field])})`;

/** The SQL reading a row's `receivedAt`, in milliseconds since the epoch, as the row keeps it. */
export const rowTime = (row: RawBuilder<unknown>): RawBuilder<number> => sql<number>`${rowField(row, 'receivedAt')}::float8`;

/** A row read back: the record, its integration and mode being the chunk's. */
export const recordOfRow = (row: readonly unknown[], integrationId: string, mode: Mode): RequestRecord => {
  const record = Object.fromEntries(FIELDS.map((field, i) => [field, row[i]])) as unknown as Omit<RequestRecord, 'integrationId' | 'mode' | 'receivedAt'> & {
    receivedAt: number;
  };
  return { ...record, integrationId, mode, receivedAt: new Date(record.receivedAt) };
};

/**
 * What jsonb refuses in a string: NUL, and a surrogate without its pair. JSON.stringify writes both as `\u` escapes,
 * in lower case; a record without any `\u` escape (nearly all) is not searched further.
 */
const REFUSED_BY_JSONB = /\\u0000|\\ud[89a-f]/;
// NUL is what this looks for: the control character is meant.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const storable = (_key: string, value: unknown) => (typeof value === 'string' ? value.replace(UNSTORABLE, '\uFFFD') : value);

/**
 * A record as its batch's insert takes it: its row as one string, what names its chunk (integration, mode, span of
 * time) and what the chunk lists of its records.
 */
export interface EncodedRequestRecord {
  readonly integrationId: string;
  readonly mode: Mode;
  readonly receivedAt: number;
  /** The request id when its time does not find it, for the chunk's index of ids; else null. */
  readonly indexedId: string | null;
  /** For the chunk's list of what its records hold, which filtered pages read instead of its records. */
  readonly status: number;
  readonly route: string;
  /** The row: JSON that jsonb accepts, without a raw line break (JSON.stringify escapes every control character). */
  readonly row: string;
}

/**
 * Encodes a record as its chunk will keep it. A record naming a NUL or a lone surrogate (a path parameter, an echoed
 * value) has it replaced by U+FFFD, so that its chunk can be read as jsonb; checked on the text first, such records
 * being rare. Its `id`, the page order's tiebreak between records of one millisecond, is made here.
 */
export const encodeRequestRecord = (record: NewRequestRecord): EncodedRequestRecord => {
  const receivedAt = record.receivedAt.getTime();
  const id = randomUUID();
  const values = FIELDS.map((field) => (field === 'id' ? id : field === 'receivedAt' ? receivedAt : record[field]));
  const text = JSON.stringify(values);
  const idTime = uuidV7Time(record.requestId);
  return {
    integrationId: record.integrationId,
    mode: record.mode,
    receivedAt,
    indexedId: idTime !== null && Math.abs(idTime - receivedAt) <= ID_TIME_TOLERANCE_MS ? null : record.requestId,
    status: record.status,
    route: record.route,
    row: text.includes('\\u') && REFUSED_BY_JSONB.test(text) ? JSON.stringify(values, storable) : text,
  };
};

interface Chunk {
  integrationId: string;
  mode: Mode;
  span: number;
  firstAt: number;
  lastAt: number;
  indexedIds: string[];
  /** The distinct statuses and routes of its records: a few each, so a list beats a set. */
  statuses: number[];
  routes: string[];
  rows: string[];
}

/** A batch's records gathered into their chunks: by integration, mode and span of time. */
const chunksOf = (records: readonly EncodedRequestRecord[]): Chunk[] => {
  const byIntegration = new Map<string, Chunk[]>();
  const chunks: Chunk[] = [];
  for (const record of records) {
    const span = Math.floor(record.receivedAt / CHUNK_SPAN_MS);
    let ofIntegration = byIntegration.get(record.integrationId);
    if (ofIntegration === undefined) byIntegration.set(record.integrationId, (ofIntegration = []));
    // An integration's records in one batch fall in one or two chunks: a search is cheaper than a key per record.
    const chunk = ofIntegration.find((c) => c.mode === record.mode && c.span === span);
    if (chunk === undefined) {
      const created: Chunk = {
        integrationId: record.integrationId,
        mode: record.mode,
        span,
        firstAt: record.receivedAt,
        lastAt: record.receivedAt,
        indexedIds: record.indexedId === null ? [] : [record.indexedId],
        statuses: [record.status],
        routes: [record.route],
        rows: [record.row],
      };
      ofIntegration.push(created);
      chunks.push(created);
      continue;
    }
    chunk.firstAt = Math.min(chunk.firstAt, record.receivedAt);
    chunk.lastAt = Math.max(chunk.lastAt, record.receivedAt);
    if (record.indexedId !== null) chunk.indexedIds.push(record.indexedId);
    if (!chunk.statuses.includes(record.status)) chunk.statuses.push(record.status);
    if (!chunk.routes.includes(record.route)) chunk.routes.push(record.route);
    chunk.rows.push(record.row);
  }
  return chunks;
};

/**
 * The insert of a batch's chunks, and its two parameters: the chunks' heads as one small JSON document, and their
 * records, each chunk's a JSON array, joined by line breaks (which no row holds), so that Postgres splits them
 * without parsing them. Always the same statement.
 */
export const chunkInsert = (records: readonly EncodedRequestRecord[]): { sql: string; parameters: [string, string] } => {
  const chunks = chunksOf(records);
  const heads = JSON.stringify(chunks.map((c) => [c.integrationId, c.mode, c.firstAt, c.lastAt, c.indexedIds, c.statuses, c.routes]));
  return { sql: INSERT_CHUNKS, parameters: [heads, chunks.map((c) => `[${c.rows.join(',')}]`).join('\n')] };
};

const INSERT_CHUNKS = `insert into request_log_chunks (integration_id, mode, first_at, last_at, request_ids, statuses, routes, records)
select (h.head->>0)::uuid, h.head->>1, to_timestamp((h.head->>2)::float8 / 1000), to_timestamp((h.head->>3)::float8 / 1000),
       array(select jsonb_array_elements_text(h.head->4)), array(select jsonb_array_elements_text(h.head->5)::smallint),
       array(select jsonb_array_elements_text(h.head->6)), r.records
  from jsonb_array_elements($1::jsonb) with ordinality as h(head, n)
  join unnest(string_to_array($2, E'\\n')) with ordinality as r(records, n) using (n)`;
