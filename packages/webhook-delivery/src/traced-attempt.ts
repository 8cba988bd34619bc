import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, trace, type Context, type TextMapPropagator } from '@opentelemetry/api';
import type { ClaimedDelivery, DeliveryReport } from '@garage/domain';

const tracer = trace.getTracer('@garage/webhook-delivery');

/**
 * Reads the `traceparent` this service stored with the event: its own, so it is trusted, unlike a request's headers,
 * which the process's propagator never reads (docs/operators/observability.md). Only a process that traced writes one,
 * so the propagator's module (and the semantic conventions it brings, over a megabyte of heap) is loaded at the first
 * such event, and never where tracing is off.
 */
let storedTraceContext: Promise<TextMapPropagator> | undefined;
const parentOf = async (traceParent: string | null | undefined): Promise<Context> => {
  if (!traceParent) return ROOT_CONTEXT;
  storedTraceContext ??= import('@opentelemetry/core').then(({ W3CTraceContextPropagator }) => new W3CTraceContextPropagator());
  return (await storedTraceContext).extract(ROOT_CONTEXT, { traceparent: traceParent }, defaultTextMapGetter);
};

/** The receiver's host, for the span: its URL's path and query may hold a token of the receiver's. */
const hostOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
};

/**
 * Each attempt in a span of its own, a child of the work that wrote the event (its `traceParent`), so that a booking's
 * trace shows the deliveries it caused, from whichever worker and however many retries later
 * (docs/operators/observability.md). Through @opentelemetry/api only: without a tracing SDK in the process, the span
 * is a no-op.
 */
export const tracedAttempt =
  (attempt: (delivery: ClaimedDelivery) => Promise<DeliveryReport>) =>
  async (delivery: ClaimedDelivery): Promise<DeliveryReport> => {
    const parent = await parentOf(delivery.traceParent);
    const host = hostOf(delivery.url);
    const attributes = {
      'webhook.event.id': delivery.event.id,
      'webhook.event.type': delivery.event.type,
      'webhook.delivery.id': delivery.id,
      'webhook.attempt': delivery.attempts + 1,
      ...(host === undefined ? {} : { 'server.address': host }),
    };
    return tracer.startActiveSpan(`webhook ${delivery.event.type}`, { kind: SpanKind.CLIENT, attributes }, parent, async (span) => {
      try {
        const report = await attempt(delivery);
        span.setAttribute('webhook.outcome', report.recorded ? report.outcome.status : 'superseded');
        if (report.attempt.statusCode !== null) span.setAttribute('http.response.status_code', report.attempt.statusCode);
        if (report.outcome.status !== 'succeeded') {
          span.setStatus({ code: SpanStatusCode.ERROR, message: report.attempt.error ?? `HTTP ${report.attempt.statusCode}` });
        }
        return report;
      } catch (err) {
        span.recordException(err instanceof Error ? err : String(err));
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'the attempt could not be recorded' });
        throw err;
      } finally {
        span.end();
      }
    });
  };
