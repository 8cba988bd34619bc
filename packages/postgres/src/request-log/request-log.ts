import { isUuid, uuidV7Time, type NewRequestRecord, type RequestLog, type RequestLogQuery, type RequestRecord } from '@garage/domain';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { makeLegacyRequestLogReads } from './legacy-request-log.js';
import {
  CHUNK_SPAN_MS,
  chunkInsert,
  encodeRequestRecord,
  ID_TIME_TOLERANCE_MS,
  recordOfRow,
  rowField,
  rowTime,
} from './request-chunks.js';
import { statusWithin } from './status-range.js';

/** Chunks a page reads first, then twice as many each time until the page is sure, at most `MOST_CHUNKS`. */
const FIRST_CHUNKS = 4;
const MOST_CHUNKS = 256;

/** Newest first; between records of one millisecond, the greater `id` first, as the keyset compares them. */
const newestFirst = (a: RequestRecord, b: RequestRecord): number =>
  b.receivedAt.getTime() - a.receivedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const ROW = sql`r.value`;

/** The record filters of a page, on a chunk's rows. */
const rowFilters = ({ status, route, since, after }: RequestLogQuery) => {
  const filters = [];
  if (status !== null) filters.push(statusWithin(sql`${rowField(ROW, 'status')}::integer`, status));
  if (route !== null) filters.push(sql`${rowField(ROW, 'route')} = ${route}`);
  if (since !== null) filters.push(sql`${rowTime(ROW)} >= ${since.getTime()}`);
  if (after !== null) {
    const at = after.sortValue.getTime();
    filters.push(sql`(${rowTime(ROW)} < ${at} or (${rowTime(ROW)} = ${at} and ${rowField(ROW, 'id')} collate "C" < ${after.id}))`);
  }
  return filters.length === 0 ? sql`true` : sql.join(filters, sql` and `);
};

/** Where the previous batch of chunks ended, in the integration index's order. */
interface ChunkPosition {
  lastAt: Date;
  id: string;
}

/**
 * The request log in Postgres (docs/reference/contract.md §10), kept as chunks (request-chunks.ts): one insert per
 * batch, a row per integration and mode in it. Reads also see the records of `request_log`, where the previous release
 * wrote, until retention has emptied it.
 */
export const makeRequestLog = (db: Kysely<Database>): RequestLog => {
  const legacy = makeLegacyRequestLogReads(db);

  const append = async (records: readonly NewRequestRecord[]): Promise<void> => {
    if (records.length === 0) return;
    const insert = chunkInsert(records.map(encodeRequestRecord));
    await db.executeQuery(CompiledQuery.raw(insert.sql, insert.parameters));
  };

  /**
   * `size` chunks of a page, newest first, after `before`, each with its records that pass the page's filters. A chunk
   * whose statuses or routes cannot match a filter is passed over unread.
   */
  const readChunks = (query: RequestLogQuery, before: ChunkPosition | null, size: number) => {
    const { integrationId, mode, since, after, status, route } = query;
    return sql<{ id: string; last_at: Date; row: unknown[] | null }>`
      select c.id, c.last_at, r.value as row
        from (select id, last_at, records from request_log_chunks
               where integration_id = ${integrationId} and mode = ${mode}
                 ${since === null ? sql`` : sql`and last_at >= ${since}`}
                 ${after === null ? sql`` : sql`and last_at < ${new Date(after.sortValue.getTime() + CHUNK_SPAN_MS)} and first_at <= ${after.sortValue}`}
                 ${before === null ? sql`` : sql`and (last_at, id) < (${before.lastAt}, ${before.id})`}
                 ${status === null ? sql`` : sql`and (statuses is null or exists (select from unnest(statuses) s where ${statusWithin(sql.ref('s'), status)}))`}
                 ${route === null ? sql`` : sql`and (routes is null or ${route} = any(routes))`}
               order by last_at desc, id desc
               limit ${size}) c
        left join lateral (select r.value from jsonb_array_elements(c.records::jsonb) r where ${rowFilters(query)}) r on true
       order by c.last_at desc, c.id desc`.execute(db);
  };

  /**
   * A page of chunked records. Chunks are read newest first by their newest record, a few, then more; the page is
   * sure once it holds `limit` records all newer than the newest record any chunk not yet read can hold.
   */
  const listChunked = async (query: RequestLogQuery): Promise<RequestRecord[]> => {
    let found: RequestRecord[] = [];
    let before: ChunkPosition | null = null;
    for (let size = FIRST_CHUNKS; ; size = Math.min(size * 2, MOST_CHUNKS)) {
      const { rows } = await readChunks(query, before, size);
      const chunks = new Set(rows.map((row) => row.id)).size;
      for (const row of rows) if (row.row !== null) found.push(recordOfRow(row.row, query.integrationId, query.mode));
      found = found.sort(newestFirst).slice(0, query.limit);
      const oldest = rows.at(-1);
      if (chunks < size || oldest === undefined) return found;
      before = { lastAt: oldest.last_at, id: oldest.id };
      const last = found[query.limit - 1];
      if (last !== undefined && last.receivedAt.getTime() > before.lastAt.getTime()) return found;
    }
  };

  /** The newest record of the chunks that may hold this request id: by its index of ids, or around its time. */
  const findChunked = async (integrationId: string, mode: RequestRecord['mode'], requestId: string): Promise<RequestRecord | null> => {
    const idTime = uuidV7Time(requestId);
    const aroundItsTime =
      idTime === null
        ? sql``
        : sql`union all
          select records from request_log_chunks
           where integration_id = ${integrationId} and mode = ${mode}
             and last_at >= ${new Date(idTime - ID_TIME_TOLERANCE_MS)}
             and last_at < ${new Date(idTime + ID_TIME_TOLERANCE_MS + CHUNK_SPAN_MS)}
             and first_at <= ${new Date(idTime + ID_TIME_TOLERANCE_MS)}`;
    const { rows } = await sql<{ row: unknown[] }>`
      select r.value as row
        from (select records from request_log_chunks
               where integration_id = ${integrationId} and mode = ${mode} and request_ids @> array[${requestId}::text]
              ${aroundItsTime}) c
        cross join lateral jsonb_array_elements(c.records::jsonb) r
       where ${rowField(ROW, 'requestId')} = ${requestId}
       order by ${rowTime(ROW)} desc, ${rowField(ROW, 'id')} collate "C" desc
       limit 1`.execute(db);
    return rows[0] ? recordOfRow(rows[0].row, integrationId, mode) : null;
  };

  return {
    append,

    async list(query) {
      if (!isUuid(query.integrationId)) return [];
      const [chunked, former] = await Promise.all([listChunked(query), legacy.list(query)]);
      return [...chunked, ...former].sort(newestFirst).slice(0, query.limit);
    },

    async findByRequestId(integrationId, mode, requestId) {
      if (!isUuid(integrationId)) return null;
      const [chunked, former] = await Promise.all([findChunked(integrationId, mode, requestId), legacy.findByRequestId(integrationId, mode, requestId)]);
      return [chunked, former].filter((record) => record !== null).sort(newestFirst)[0] ?? null;
    },
  };
};
