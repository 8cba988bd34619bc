import { context, propagation } from '@opentelemetry/api';

/**
 * The W3C `traceparent` of the work in progress, to store with an outbox event; null when there is none to join.
 * With tracing off the API's propagator does nothing and this returns null at once.
 */
export const activeTraceParent = (): string | null => {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
};
