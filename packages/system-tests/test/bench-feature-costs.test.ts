import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import t from 'tap';

/**
 * The parts of `pnpm bench` that decide what a feature costs, the request log's figure among them
 * (docs/operators/configuration.md, "The request log"): wrk driving a scenario's requests, and the report that refuses
 * to compare two APIs unless both were busy.
 */

const script = (file: string) => fileURLToPath(new URL(`../../../scripts/bench/${file}`, import.meta.url));

interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
}
interface WrkResult {
  requests: { total: number; average: number };
}
const { fireWrk } = (await import(script('wrk.js'))) as {
  fireWrk: (options: { url: string; requests: Request[]; connections: number; duration: number }) => Promise<WrkResult>;
};
interface Feature {
  feature: string;
}
const { FEATURES, featureCostReport, featuresWanted } = (await import(script('feature-costs.js'))) as {
  FEATURES: Feature[];
  featureCostReport: (feature: Feature, results: unknown[], durationSeconds: number) => string[];
  featuresWanted: (only: string | undefined) => Feature[];
};
const requestLog = FEATURES.find((f) => f.feature === 'request log');
const accessLog = FEATURES.find((f) => f.feature === 'access log');
if (!requestLog || !accessLog) throw new Error('the bench measures the request log and the access log');
const requestLogReport = (results: unknown[], durationSeconds: number) => featureCostReport(requestLog, results, durationSeconds);

/** A server answering `status` and counting the requests by path and `x-api-key`. */
const countingServer = async (status: number) => {
  const seen = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const key = `${request.method} ${request.url} ${request.headers['x-api-key'] ?? '-'} ${request.headers.host ?? '-'}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise((resolve) => server.close(resolve)) };
};

t.test('wrk sends every request of the scenario, each with its own headers, and counts what it sent', async (t) => {
  const server = await countingServer(200);
  t.teardown(server.close);
  const requests = [
    { method: 'GET', path: '/api/public/products?limit=100', headers: { 'x-api-key': 'key-a' } },
    { method: 'GET', path: '/api/public/products?limit=100', headers: { 'x-api-key': 'key-b' } },
    { method: 'GET', path: '/api/public/stock?limit=10', headers: { 'x-api-key': 'key-a' } },
  ];
  const result = await fireWrk({ url: server.url, requests, connections: 4, duration: 1 });
  const host = new URL(server.url).host;
  t.same(
    [...server.seen.keys()].sort(),
    requests.map((r) => `GET ${r.path} ${r.headers['x-api-key']} ${host}`).sort(),
    'each request as the scenario wrote it, with the Host header a server expects',
  );
  const served = [...server.seen.values()].reduce((a, b) => a + b, 0);
  t.ok(result.requests.total > 0, 'requests were counted');
  // wrk counts the responses it read; a connection may have one request in flight when the run ends.
  t.ok(served >= result.requests.total && served <= result.requests.total + 4, `the server served what wrk counted (${served}, ${result.requests.total})`);
  t.equal(result.requests.average, result.requests.total, 'the average is per second of the run');
  const each = [...server.seen.values()];
  t.ok(Math.max(...each) - Math.min(...each) <= 4, 'the requests are sent in turn');
});

t.test('a status from 400 up fails the run: a fast wrong answer is not a result', async (t) => {
  const server = await countingServer(429);
  t.teardown(server.close);
  await t.rejects(
    fireWrk({ url: server.url, requests: [{ method: 'GET', path: '/', headers: {} }], connections: 2, duration: 1 }),
    /responses with a status from 400 up/,
  );
});

t.test('a path wrk cannot carry as written is refused before the run', async (t) => {
  await t.rejects(
    fireWrk({ url: 'http://127.0.0.1:9', requests: [{ method: 'GET', path: '/caf\u00e9', headers: {} }], connections: 1, duration: 1 }),
    /not printable ASCII/,
  );
});

/** One slice of the cached page: `cpuUs` per request at `rps` for `seconds`. */
const slice = (mode: string, cpuUs: number, rps: number, seconds = 6) => ({
  mode,
  name: 'products limit=100',
  result: { requests: { total: rps * seconds, average: rps } },
  serverUs: cpuUs,
  postgresUs: 5,
});

t.test('the report compares two APIs only when both were saturated', async (t) => {
  const saturated = requestLogReport([slice('off', 80, 12_500), slice('on', 84, 11_900)], 6);
  t.ok(saturated.some((line) => /the request log costs 4 µs, 5\.0 % API CPU per request \(budget 10 %\)/.test(line)), 'the cost per request, within its budget');
  t.ok(saturated.some((line) => /off: .*API busy 100 %/.test(line)), "each API's busy share");
  t.notOk(saturated.some((line) => line.includes('not comparable')), 'no warning when both were busy');

  // The shape of the autocannon runs: the API with the log served fewer requests than it could.
  const starved = requestLogReport([slice('off', 78, 13_000), slice('on', 94, 9_900)], 6);
  t.ok(starved.some((line) => line.includes('not comparable')), 'an API busy 93 % of the time is not compared as if saturated');
});

t.test("the access log's cost is reported as its own, with the setting that turns it off and no budget", async (t) => {
  const lines = featureCostReport(accessLog, [slice('off', 90, 11_000), slice('on', 108, 9_300)], 6);
  t.match(lines[0], /^cost of the access log .*LOG_LEVEL=warn vs the default info/, 'named with its switch');
  t.ok(lines.some((line) => /the access log costs 18 µs, 20\.0 % API CPU per request; throughput down/.test(line)), 'the cost per request');
  t.notOk(lines.some((line) => line.includes('budget')), 'no budget of its own');
});

t.test('--only picks the features by name, and a run without it measures them all', async (t) => {
  t.same(featuresWanted('access log').map((f) => f.feature), ['access log']);
  t.same(featuresWanted('request log').map((f) => f.feature), ['request log']);
  t.same(featuresWanted('log').map((f) => f.feature), ['request log', 'access log']);
  t.same(featuresWanted('products limit=100'), []);
  t.same(featuresWanted(undefined).map((f) => f.feature), ['request log', 'access log']);
});
