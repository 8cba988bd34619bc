import type { ClaimedDelivery, DeliveryReport } from '@garage/domain';
import * as nodeModule from 'node:module';
import t from 'tap';

// module.registerHooks (Node 22.15 on), which the @types/node this project builds with does not describe yet.
type LoadHook = (url: string, context: unknown, next: (url: string, context: unknown) => unknown) => unknown;
const { registerHooks } = nodeModule as unknown as { registerHooks(hooks: { load: LoadHook }): unknown };

const deliveryWith = (traceParent: string | null) =>
  ({ id: 'd1', url: 'https://receiver.example/hook', attempts: 0, event: { id: 'e1', type: 'appointment.created' }, traceParent }) as unknown as ClaimedDelivery;
const report = { recorded: true, outcome: { status: 'succeeded' }, attempt: { statusCode: 204, error: null } } as unknown as DeliveryReport;

t.test("the stored trace context's propagator is loaded at the first event that has one", async (t) => {
  const loaded: string[] = [];
  registerHooks({ load: (url, context, next) => (loaded.push(url), next(url, context)) });
  const { tracedAttempt } = await import('../src/traced-attempt.js');
  const attempt = tracedAttempt(async () => report);
  const coreLoaded = () => loaded.some((url) => url.includes('@opentelemetry/core/'));

  t.equal(await attempt(deliveryWith(null)), report);
  t.notOk(coreLoaded(), 'an event written while tracing was off loads no propagator');
  t.equal(await attempt(deliveryWith('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')), report);
  t.ok(coreLoaded(), 'an event with a traceparent does');
});
