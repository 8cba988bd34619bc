import t from 'tap';
import { startTracing, traceLogMixin, tracingConfigured } from '../src/tracing.js';

t.test('tracing is on only when an OTLP endpoint is named and the standard variables do not turn it off', async (t) => {
  t.equal(tracingConfigured({}), false, 'off by default');
  t.equal(tracingConfigured({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), false, 'other variables alone do not turn it on');
  t.equal(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), true);
  t.equal(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }), true, 'the traces-only endpoint too');
  t.equal(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }), false);
  t.equal(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }), false);
});

t.test('off, nothing starts and log lines get no mixin', async (t) => {
  t.equal(await startTracing({ serviceName: 'garage-test', env: {} }), false);
  t.equal(traceLogMixin(), undefined);
});
