import { makeRequestLog } from '@garage/postgres';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';
import { recordOf, type ServedRequest } from '../http/served-request.js';
import { makeBatchedWriter, type BatchedWriter } from './batched-writer.js';

/** Requests held for their records while the database is slow or away; under 1 KB each: a few MB per instance at most. */
export const REQUEST_LOG_BUFFER = 5000;
/**
 * Records per insert. An insert costs Postgres about a quarter of a millisecond whatever it holds, and the records
 * of one integration in a batch share a chunk: at 100 records, an instance serving 50 integrations wrote chunks of two
 * records and paid 7-8 µs of Postgres CPU per record; at 1,000, 1-2 µs. A busy instance still fills a batch within a
 * fraction of a second; a quiet one writes what it has every `REQUEST_LOG_FLUSH_MS`.
 */
export const REQUEST_LOG_BATCH = 1000;
export const REQUEST_LOG_FLUSH_MS = 1000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the request-log hook hands what it kept of a request; null when the log is off (REQUEST_LOG=off). */
    requestRecorder: BatchedWriter<ServedRequest> | null;
  }
}

export interface RequestRecorderOptions {
  enabled: boolean;
  flushIntervalMs?: number;
}

/**
 * The request log's writer (docs/reference/contract.md §10): records are written in batches off the request path, and
 * what cannot be written is counted, never thrown at a request. Records past REQUEST_LOG_RETENTION_DAYS go with the
 * other tables that grow with time (docs/operators/retention.md).
 */
export default fp(
  async (app: FastifyInstance, { enabled, flushIntervalMs = REQUEST_LOG_FLUSH_MS }: RequestRecorderOptions) => {
    if (!enabled) {
      app.decorate('requestRecorder', null);
      return;
    }
    const log = makeRequestLog(app.storage.handle.db);
    const registers = [app.metrics.registry];
    const dropped = new Counter({
      name: 'request_log_dropped_total',
      help: 'Request records dropped because the request log buffer was full (the database slower than the traffic).',
      registers,
    });
    const failed = new Counter({
      name: 'request_log_write_failures_total',
      help: 'Request records lost because their batch could not be written.',
      registers,
    });
    const written = new Counter({ name: 'request_log_written_total', help: 'Request records written.', registers });
    let lastFailureLogged = 0;
    const recorder = makeBatchedWriter<ServedRequest>({
      // Records are made here, a batch at a time, not on each response's path.
      write: (served) => log.append(served.map(recordOf)),
      maxBuffered: REQUEST_LOG_BUFFER,
      batchSize: REQUEST_LOG_BATCH,
      intervalMs: flushIntervalMs,
      onDropped: (n) => dropped.inc(n),
      onWritten: (n) => written.inc(n),
      onFailed: (err, n) => {
        failed.inc(n);
        // One line a minute at most: an outage would otherwise add a line per batch to the outage's own noise.
        if (Date.now() - lastFailureLogged > 60_000) {
          lastFailureLogged = Date.now();
          app.log.warn({ err, records: n }, 'could not write request records; they are counted in request_log_write_failures_total');
        }
      },
    });
    app.decorate('requestRecorder', recorder);
    // Registered after the database's own onClose hook, so it runs first: the last records are written before it closes.
    app.addHook('onClose', () => recorder.close());
  },
  { name: 'request-recorder', dependencies: ['storage', 'metrics'] },
);
