import { register } from 'node:module';
import type { IncomingHttpHeaders } from 'node:http';
import { ROOT_CONTEXT, trace, type Span, type TextMapPropagator } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';

type Env = Record<string, string | undefined>;

/**
 * Tracing is on when an OTLP endpoint is named, by the standard variables (docs/operators/observability.md), and not
 * turned off by them. Off, nothing of the SDK is loaded and no module is patched.
 */
export const tracingConfigured = (env: Env): boolean =>
  Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT) &&
  env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true' &&
  env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() !== 'none';

let sdk: NodeSDK | null = null;

/**
 * The process's propagator: it writes W3C trace context (the `traceparent` stored with an outbox event, which the
 * delivery reads back with a propagator of its own) and takes none from a carrier. The only carriers it would be given
 * are the headers of incoming requests, written by whoever calls the API: a caller's `traceparent` must not choose
 * the trace, nor the sampling, of the work it causes and of the webhook spans stored with it. A request starts a
 * trace of its own, and the caller's context is a link of its span (`requestSpanHook`).
 */
const writeOnly = (traceContext: TextMapPropagator): TextMapPropagator => ({
  inject: (context, carrier, setter) => traceContext.inject(context, carrier, setter),
  extract: (context) => context,
  fields: () => traceContext.fields(),
});

/**
 * Names the request's span by its route pattern, never the URL (a path may hold a quote token, a query the
 * discouraged `apiKey`), and links the caller's trace context when the request carried a valid one.
 */
const requestSpanHook =
  (traceContext: TextMapPropagator) => (span: Span, request: { method: string; routeOptions: { url?: string }; headers: IncomingHttpHeaders }) => {
    const route = request.routeOptions.url;
    span.updateName(route === undefined ? request.method : `${request.method} ${route}`);
    // @fastify/otel records the raw URL as `url.path`; the pattern replaces it.
    span.setAttribute('url.path', route ?? 'unmatched');
    const caller = trace.getSpanContext(traceContext.extract(ROOT_CONTEXT, request.headers, { get: (carrier, key) => carrier[key], keys: Object.keys }));
    if (caller && trace.isSpanContextValid(caller)) span.addLink({ context: caller, attributes: { 'link.reason': 'caller trace context' } });
  };

/**
 * Starts OpenTelemetry tracing when `env` asks for it (`tracingConfigured`): spans for Fastify's requests, Postgres
 * statements and Redis commands, exported over OTLP as the standard variables say (endpoint, protocol, headers,
 * sampler, resource). `serviceName` names the process unless `OTEL_SERVICE_NAME` does.
 *
 * Call it before anything imports fastify, pg or ioredis (the entry point imports the rest of the process
 * dynamically afterwards): the instrumentations patch those modules as they load, through the loader hook of
 * @opentelemetry/instrumentation, registered here, for the modules imported as ES modules.
 */
export const startTracing = async ({ serviceName, env = process.env }: { serviceName: string; env?: Env }): Promise<boolean> => {
  if (sdk !== null || !tracingConfigured(env)) return sdk !== null;
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [{ NodeSDK }, { W3CTraceContextPropagator }, { FastifyOtelInstrumentation }, { PgInstrumentation }, { IORedisInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/core'),
    import('@fastify/otel'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
  ]);
  const traceContext = new W3CTraceContextPropagator();
  sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName }),
    // Metrics stay with Prometheus (/metrics), logs with stdout: only traces go over OTLP.
    metricReaders: [],
    logRecordProcessors: [],
    textMapPropagator: writeOnly(traceContext),
    instrumentations: [
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        // One span per request and one for its handler; a span per hook would cost more than most hooks do.
        instrumentHooks: false,
        requestHook: requestSpanHook(traceContext),
      }),
      // Statement texts carry placeholders only; parameter values are never recorded (enhancedDatabaseReporting off).
      // Statements outside any traced work (the worker's polling) make no traces of their own.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      // The command's name only: keys hold client addresses and key hashes, values what the limits count.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  return true;
};

/** Sends the spans still buffered and stops tracing; nothing to do when it is off. */
export const stopTracing = async (): Promise<void> => {
  const running = sdk;
  sdk = null;
  await running?.shutdown();
};

/**
 * The `trace_id` and `span_id` of the span active where a log line is written, for pino's `mixin`; undefined (no
 * mixin at all) when tracing is off, so that log lines cost nothing more then.
 */
export const traceLogMixin = (): (() => { trace_id?: string; span_id?: string }) | undefined =>
  sdk === null
    ? undefined
    : () => {
        const span = trace.getActiveSpan();
        if (span === undefined) return {};
        const { traceId, spanId } = span.spanContext();
        return { trace_id: traceId, span_id: spanId };
      };
