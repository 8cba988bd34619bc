// The cost of tracing: the cached products page on two fresh APIs over the same data, one with tracing off (as by
// default) and one exporting every trace over OTLP to a sink on loopback that accepts and drops them, as a collector
// on the same host would (docs/operators/observability.md).
import { once } from 'node:events';
import { createServer } from 'node:http';
import { buildScenarios } from './scenarios.js';
import { startApi } from './servers.js';

/** An OTLP/HTTP receiver that reads each export and answers 200: the exporter's whole cost, no backend's. */
const startSink = async () => {
  const server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => {
      sink.exports += 1;
      sink.bytes += bytes;
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const sink = {
    url: `http://127.0.0.1:${server.address().port}`,
    exports: 0,
    bytes: 0,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
  return sink;
};

/**
 * Runs the `products limit=100` scenario on an API with tracing off, then on one with tracing on, each after a
 * warm-up; `measure(scenario, server)` is the bench's own measure. Resolves to both results and what the sink got.
 */
export const benchTracing = async ({ apiOptions, bare, fixtures, warmUp, measure, log }) => {
  const sink = await startSink();
  const modes = [
    { name: 'off', env: {} },
    // The exporter as operators run it by default (http/protobuf), every trace sampled, exported every second.
    { name: 'on', env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_BSP_SCHEDULE_DELAY: '1000' } },
  ];
  const results = [];
  try {
    for (const mode of modes) {
      log(`tracing ${mode.name}: products limit=100…`);
      const api = await startApi({ ...apiOptions, env: mode.env });
      try {
        const scenario = buildScenarios({ api, bare, fixtures }).find((s) => s.name === 'products limit=100');
        await warmUp(scenario);
        results.push({ mode: mode.name, ...(await measure(scenario, api)) });
      } finally {
        await api.stop();
      }
    }
  } finally {
    await sink.close();
  }
  return { results, exports: sink.exports, exportedKiB: sink.bytes / 1024 };
};
