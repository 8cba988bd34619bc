import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@garage/postgres/testing';
import { startReceiver } from '@garage/webhook-delivery/testing';
import { requireTestRedis } from '@garage/redis/testing';
import t, { type Test } from 'tap';
import { parse } from 'yaml';
import { adminFor, ENCRYPTION_KEY } from '@garage/composition/testing';
import { eventually, freePort, http, startApi, type ApiProcess } from './support/processes.js';
import { startWorker } from './support/telemetry.js';

/**
 * The monitoring that ships in deploy/, run against the real thing: Prometheus (the Debian package's binary) scrapes
 * two API instances and a worker on loopback, loads deploy/prometheus/alerts.yaml, and answers for the series the
 * dashboard and the rules read. Every metric they name must be one of those the processes export.
 */

const REDIS_URL = await requireTestRedis();
const PROMETHEUS = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'].find((path) => existsSync(path));
if (!PROMETHEUS) throw new Error('prometheus is not installed: this test needs it (.ci/system-deps installs it)');

const DEPLOY = fileURLToPath(new URL('../../../deploy/', import.meta.url));
const RULES = join(DEPLOY, 'prometheus/alerts.yaml');
const DASHBOARD = join(DEPLOY, 'grafana/garage-api.json');

/** Words of PromQL that are not metric names. */
const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset']);

/** The metric names an expression reads: its identifiers, once label matchers, groupings, ranges and calls are gone. */
export const metricNamesOf = (expr: string): string[] => {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ');
  return [...bare.matchAll(/(?<![\w.])([a-zA-Z_:][\w:]*)\b(?!\s*\()/g)]
    .map((m) => m[1]!)
    .filter((word) => !PROMQL_WORDS.has(word) && !/^(inf|nan)$/i.test(word));
};

const expressionsOfRules = async (): Promise<string[]> => {
  const rules = parse(await readFile(RULES, 'utf8')) as { groups: { rules: { expr: string }[] }[] };
  return rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr));
};

const expressionsOfDashboard = async (): Promise<string[]> => {
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as { panels: { targets?: { expr: string }[] }[]; templating: { list: { definition?: string }[] } };
  return [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
    ...dashboard.templating.list.flatMap((variable) => (variable.definition ? [variable.definition.replace(/^label_values\((.*), \w+\)$/, '$1')] : [])),
  ];
};

t.test('metric names are read out of expressions', async (t) => {
  t.same(
    metricNamesOf('histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{job="garage-api", route=~"/a|b"}[5m]))) > 0.25'),
    ['http_request_duration_seconds_bucket'],
  );
  t.same(metricNamesOf('sum(rate(a_total{x="1"}[5m])) / sum(rate(b_total[$__rate_interval])) > 0.02'), ['a_total', 'b_total']);
  t.same(metricNamesOf('db_pool_connections{job="garage-api"} - db_pool_idle_connections'), ['db_pool_connections', 'db_pool_idle_connections']);
  t.same(metricNamesOf('max by (job, instance) (health_dependency_up{dependency="postgres"}) == 0'), ['health_dependency_up']);
});

interface PrometheusProcess {
  url: string;
  query<T = { metric: Record<string, string>; value: [number, string] }>(expr: string): Promise<T[]>;
}

/** Prometheus on loopback with `config`, its data in a temporary directory; stopped and removed at the end. */
const startPrometheus = async (t: Test, config: object): Promise<PrometheusProcess> => {
  const dir = await mkdtemp(join(tmpdir(), 'garage-prometheus-'));
  const file = join(dir, 'prometheus.yml');
  await writeFile(file, JSON.stringify(config));
  const port = await freePort();
  const child = spawn(PROMETHEUS, [`--config.file=${file}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  t.teardown(async () => {
    child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${port}`;
  if (!(await eventually(async () => (await http(`${url}/-/ready`)).status === 200, { attempts: 150, intervalMs: 200 }))) {
    throw new Error(`Prometheus did not get ready within 30 s: ${stderr}`);
  }
  return {
    url,
    async query(expr) {
      const res = await http(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = res.json<{ status: string; data: { result: never[] } }>();
      if (body.status !== 'success') throw new Error(`${expr}: ${res.body}`);
      return body.data.result;
    },
  };
};

const metricsAddressOf = (api: ApiProcess): string => {
  const line = api.lines.find((l) => /^Metrics listening at http:\/\//.test(String(l.msg)));
  return /http:\/\/([^/]+)\/metrics/.exec(String(line?.msg))![1]!;
};

t.test('Prometheus scrapes two API instances and a worker, and every metric of the dashboard and the rules is there', async (t) => {
  const database = await createTestDatabase('prometheus');
  t.teardown(database.drop);
  const hooks = await startReceiver();
  t.teardown(hooks.close);
  const admin = adminFor(database.handle.db);
  await admin.createGarage({ slug: 'watched', name: 'Watched' });
  const { apiKey } = await admin.createIntegration({ garageSlug: 'watched', name: 'shop', sync: ['appointments', 'catalog', 'stock'], webhookUrl: `${hooks.url}/hooks` });

  const apiEnv = { DATABASE_URL: database.url, ENCRYPTION_KEY, REDIS_URL: REDIS_URL!, DELIVER_WEBHOOKS: 'false' };
  const apis = [await startApi(t, apiEnv), await startApi(t, apiEnv)];
  const worker = await startWorker(t, { DATABASE_URL: database.url, ENCRYPTION_KEY, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128' });
  const prometheus = await startPrometheus(t, {
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    rule_files: [RULES],
    scrape_configs: [
      { job_name: 'garage-api', static_configs: [{ targets: apis.map(metricsAddressOf) }] },
      { job_name: 'garage-worker', static_configs: [{ targets: [worker.metrics] }] },
    ],
  });

  // Reads on both instances, failed authentication until the throttle answers 429, and a booking whose webhook the
  // worker delivers.
  for (const api of apis) {
    for (let i = 0; i < 5; i += 1) t.equal((await http(`http://127.0.0.1:${api.port}/api/public/products`, { headers: { 'x-api-key': apiKey } })).status, 200, 'a read');
  }
  const stranger = `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;
  let refused = 0;
  for (let i = 0; i < 40 && refused !== 429; i += 1) {
    refused = (await http(`http://127.0.0.1:${apis[0]!.port}/api/public/products`, { headers: { 'x-api-key': 'not-a-key' }, localAddress: stranger })).status;
  }
  t.equal(refused, 429, 'repeated failed authentication is throttled');
  const base = `http://127.0.0.1:${apis[1]!.port}`;
  const today = new Date().toISOString().slice(0, 10);
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const slots = await http(`${base}/api/public/appointments/availability?from=${today}&to=${inAWeek}`, { headers: { 'x-api-key': apiKey } });
  const startsAt = slots.json<{ data: { startsAt: string }[] }>().data[0]?.startsAt;
  const booked = await http(`${base}/api/public/appointments`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ startsAt, customer: { name: 'Jeanne Martin', email: 'jeanne@example.com' } }),
  });
  t.equal(booked.status, 201, 'booked');
  await hooks.waitFor(1, 20_000);

  const seen = async (expr: string, count: number) => (await prometheus.query(expr)).length >= count;
  const reads = 'sum by (instance) (http_requests_total{job="garage-api", route="/api/public/products", status_code="200"}) >= 5';
  const expected: [string, number, string][] = [
    ['up{job="garage-api"} == 1', 2, 'both API instances are up'],
    ['up{job="garage-worker"} == 1', 1, 'the worker is up'],
    [reads, 2, "each instance's reads, by route pattern"],
    ['http_rate_limited_total{job="garage-api", route="/api/public/products"} > 0', 1, 'the 429s of the throttle'],
    ['webhook_deliveries_total{job="garage-worker", result="succeeded"} >= 1', 1, "the worker's delivery"],
    ['webhook_delivery_lag_seconds_count{job="garage-worker"} >= 1', 1, 'its lag'],
    ['health_ready == 1', 3, 'every process is ready'],
    ['health_dependency_up{dependency="postgres"} == 1', 3, 'Postgres is up for all three'],
    ['health_dependency_up{job="garage-api", dependency="redis"} == 1', 2, 'Redis is up for the API instances'],
    ['db_pool_connections{job="garage-api"} > 0', 2, "the API instances' pools"],
  ];
  for (const [expr, count, message] of expected) {
    t.ok(await eventually(() => seen(expr, count), { attempts: 100, intervalMs: 200 }), message);
  }

  const rules = await http(`${prometheus.url}/api/v1/rules`);
  const groups = rules.json<{ data: { groups: { rules: { name: string; health: string }[] }[] } }>().data.groups;
  const loaded = groups.flatMap((group) => group.rules);
  t.equal(loaded.length, (await expressionsOfRules()).length, 'Prometheus loaded every rule of alerts.yaml');
  t.same(loaded.filter((rule) => rule.health !== 'ok'), [], 'and evaluates each without error');

  const names = new Set((await http(`${prometheus.url}/api/v1/label/__name__/values`)).json<{ data: string[] }>().data);
  const named = new Set([...(await expressionsOfRules()), ...(await expressionsOfDashboard())].flatMap(metricNamesOf));
  t.ok(named.size >= 10, 'the dashboard and the rules name the metrics they read');
  for (const name of [...named].sort()) t.ok(names.has(name), `${name} is exported`);
});
