import { LOG_REDACTION } from '@garage/observability';
import { traceLogMixin } from '@garage/observability/tracing';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '@garage/config';

/** The worker's JSON lines, with the API's redaction (docs/operators/logging.md) and the active trace's ids. */
export const createWorkerLogger = (level: LogLevel, stream?: DestinationStream): Logger =>
  pino(
    { level, base: { service: 'garage-worker', pid: process.pid }, redact: LOG_REDACTION, mixin: traceLogMixin() },
    stream ?? process.stdout,
  );
