import type { LogLevel } from '@garage/config';
import { LOG_REDACTION } from '@garage/observability';
import { traceLogMixin } from '@garage/observability/tracing';
import { pino, type DestinationStream, type Logger } from 'pino';

/** The worker's JSON lines on stdout: the API's redaction, and the trace of the delivery a line is about. */
export const createWorkerLogger = (level: LogLevel, stream?: DestinationStream): Logger =>
  pino({ level, base: { service: 'garage-worker', pid: process.pid }, mixin: traceLogMixin(), redact: LOG_REDACTION }, stream);
