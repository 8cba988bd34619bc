import { Counter, Registry } from 'prom-client';
import t from 'tap';
import { startHealthServer, startMetricsServer, type HealthReport } from '../src/index.js';

const up: HealthReport = { status: 'ok', checks: { postgres: 'up', redis: 'absent', draining: false } };

t.test('the metrics listener serves /metrics and nothing else', async (t) => {
  const registry = new Registry();
  new Counter({ name: 'probe_total', help: 'A counter of the test.', registers: [registry] }).inc(3);
  const server = await startMetricsServer({ registry, host: '127.0.0.1', port: 0 });
  t.teardown(() => server.close());
  const res = await fetch(`http://${server.address}/metrics`);
  t.equal(res.status, 200);
  t.match(await res.text(), /probe_total 3/);
  t.equal(res.headers.get('cache-control'), 'no-store');
  for (const path of ['/', '/health/live', '/metricsx']) {
    const other = await fetch(`http://${server.address}${path}`);
    t.equal(other.status, 404, path);
    await other.text();
  }
  const post = await fetch(`http://${server.address}/metrics`, { method: 'POST' });
  t.equal(post.status, 404, 'GET only');
  await post.text();
});

t.test('the health listener answers like the API: live while running, ready as the report says', async (t) => {
  let report: HealthReport | Error = up;
  const server = await startHealthServer({ host: '127.0.0.1', port: 0, report: async () => (report instanceof Error ? Promise.reject(report) : report) });
  t.teardown(() => server.close());
  const get = async (path: string) => {
    const res = await fetch(`http://${server.address}${path}`);
    return { status: res.status, body: (await res.json()) as HealthReport };
  };
  t.same(await get('/health/ready'), { status: 200, body: up });
  report = { status: 'unavailable', checks: { postgres: 'down', redis: 'absent', draining: false } };
  t.same(await get('/health/ready'), { status: 503, body: report });
  t.same(await get('/health/live'), { status: 200, body: { ...report, status: 'ok' } }, 'alive whatever the dependencies');
  report = new Error('probe failed');
  t.equal((await get('/health/ready')).status, 503, 'a failing probe is not ready');
  t.equal((await get('/health/live')).status, 200);
  const missing = await fetch(`http://${server.address}/metrics`);
  t.equal(missing.status, 404);
  await missing.text();
});
