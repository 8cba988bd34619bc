// The request metrics are counted per series by the API and handed to prom-client at scrape time (issue 18). What a
// scraper reads must be exactly what prom-client's own counter and histogram would have exposed for the same requests.
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import t from 'tap';
import { registerRequestMetrics } from '../src/plugins/request-series.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const labelNames = ['method', 'route', 'status_code'] as const;

/** The same metrics as prom-client would keep them, observation by observation. */
const reference = () => {
  const registry = new Registry();
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status code.', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by method, route pattern and status code.',
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    observe(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status_code: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
  };
};

const request = fc.record({
  method: fc.constantFrom('GET', 'HEAD', 'POST'),
  route: fc.constantFrom('/api/public/products', '/api/public/fleet/:vehicleId', 'unmatched'),
  status: fc.constantFrom(200, 304, 401, 404, 429, 500),
  // Bounds themselves included: a value equal to a bound falls in that bound's bucket.
  seconds: fc.oneof(fc.constantFrom(0, ...BUCKETS), fc.double({ min: 0, max: 20, noNaN: true })),
});

t.test('the text and JSON a scraper reads are those of prom-client for the same requests', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(request, { maxLength: 60 }), async (requests) => {
      const ours = new Registry();
      const metrics = registerRequestMetrics(ours, BUCKETS);
      const theirs = reference();
      for (const { method, route, status, seconds } of requests) {
        metrics.observe(method, route, status, seconds);
        theirs.observe(method, route, status, seconds);
      }
      t.equal(await ours.metrics(), await theirs.registry.metrics());
      t.same(await ours.getMetricsAsJSON(), await theirs.registry.getMetricsAsJSON());
      // A second scrape reads the same, and a later request is added to it.
      t.equal(await ours.metrics(), await theirs.registry.metrics());
      metrics.observe('GET', '/api/public/products', 200, 0.001);
      theirs.observe('GET', '/api/public/products', 200, 0.001);
      t.equal(await ours.metrics(), await theirs.registry.metrics());
    }),
    { numRuns: 100 },
  );
});

t.test('a reset registry starts again from nothing', async (t) => {
  const registry = new Registry();
  const metrics = registerRequestMetrics(registry, BUCKETS);
  metrics.observe('GET', '/x', 200, 0.2);
  registry.resetMetrics();
  const empty = reference();
  t.equal(await registry.metrics(), await empty.registry.metrics());
});
