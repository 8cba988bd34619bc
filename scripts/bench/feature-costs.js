// What a feature of the request path costs: the cached products page (and, for the request log, bookings across
// days) served by two APIs over the same data that run side by side, one with the feature off and one as operators
// run it. The load goes to one, then the other, in short slices whose order alternates (off, on, on, off, …), so that
// a neighbour's load on this shared machine weighs on both modes alike. Compare the API's CPU per request:
// throughput moves with the neighbours, CPU per request much less.
//
// - The request log (docs/reference/contract.md §10): REQUEST_LOG=off against the default, within a budget of 10 %.
// - The access log, the `request completed` line of every request: LOG_LEVEL=warn against the default info. No
//   budget: an operator who keeps the line elsewhere (a load balancer's log) can turn it off for what it costs.
import { buildScenarios } from './scenarios.js';
import { startApi } from './servers.js';

/**
 * The cached page is driven by wrk. An API's CPU per request depends on its load: saturated, it serves several
 * requests per turn of its event loop and each costs less. autocannon, an event loop of its own at ~35 µs of CPU per
 * page, fell behind when the log's inserts took Postgres's share of two CPUs from it: the API with the log was left
 * busy about 93 % of the time against 100 % without, and the comparison measured that difference in load along with
 * the log. wrk (~13 µs a page, mostly the kernel's) keeps both APIs saturated; the report prints how busy each was.
 */
const CACHED_PAGE = { name: 'products limit=100', slices: 4, loadGenerator: 'wrk' };

/**
 * The features measured: what `--only` names each by, the setting that turns it off, and the scenarios with their
 * slices per mode. Bookings take places for good: the slices book into a garage of their own, whose places the main
 * table's scenarios leave alone, and one scenario object serves both APIs, so no slice repeats a place.
 */
export const FEATURES = [
  {
    feature: 'request log',
    off: { REQUEST_LOG: 'off' },
    switch: 'REQUEST_LOG=off vs the default on',
    budgetPercent: 10,
    scenarios: [CACHED_PAGE, { name: 'booking across days, one request per place', slices: 2 }],
  },
  {
    feature: 'access log',
    off: { LOG_LEVEL: 'warn' },
    switch: 'LOG_LEVEL=warn vs the default info',
    budgetPercent: null,
    scenarios: [CACHED_PAGE],
  },
];

/** Below this share of the measured time on CPU, an API was not saturated and its CPU per request not comparable. */
const SATURATED = 0.95;

/**
 * Warm-up rounds before the first slice, each the bench's warm-up (1 s) for one API then the other. One round left the
 * JIT compiling well into the measured slices: a run's first slices cost up to twice its last, in both modes, and
 * the difference to measure drowned in it. After six, the slices of one mode agree within about 10 %.
 */
const WARMUP_ROUNDS = 6;

/** off, on, on, off, off, on, …: each mode first as often as second. */
const sliceOrder = (slices) => Array.from({ length: slices * 2 }, (_, i) => (Math.floor((i + 1) / 2) % 2 === 0 ? 'off' : 'on'));

/** The features `--only` asks for: all of them without it. */
export const featuresWanted = (only) => FEATURES.filter(({ feature }) => !only || feature.includes(only));

/** Resolves to one result per slice of `feature` (one of FEATURES): `{mode, name, result, serverUs}` as `measure` gives. */
export const benchFeatureCost = async (feature, { apiOptions, bare, fixtures, warmUp, measure, log, duration }) => {
  const modes = [
    { mode: 'off', env: feature.off },
    { mode: 'on', env: {} },
  ];
  const apis = {};
  try {
    for (const { mode, env } of modes) apis[mode] = await startApi({ ...apiOptions, logFile: `${apiOptions.logFile}.${feature.feature.replace(' ', '-')}-${mode}`, env });
    const ownPlaces = { ...fixtures, garages: { ...fixtures.garages, days: fixtures.garages.logDays }, daySlots: fixtures.logDaySlots };
    const scenarios = buildScenarios({ api: apis.on, bare, fixtures: ownPlaces });
    const results = [];
    for (const { name, slices, loadGenerator } of feature.scenarios) {
      const scenario = scenarios.find((s) => s.name === name);
      if (!scenario) continue;
      const at = (mode) => ({ ...scenario, url: apis[mode].url, loadGenerator });
      if (scenario.warmup) {
        for (let round = 0; round < WARMUP_ROUNDS; round += 1) for (const { mode } of modes) await warmUp(at(mode));
      }
      for (const mode of sliceOrder(slices)) {
        log(`${feature.feature} ${mode}: ${name} (${duration} s)…`);
        results.push({ mode, name, ...(await measure(at(mode), apis[mode])) });
      }
    }
    return results;
  } finally {
    for (const api of Object.values(apis)) await api.stop();
  }
};

const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** Lines for the report: each scenario's CPU per request and throughput, off and on, and the difference. */
export const featureCostReport = (feature, results, durationSeconds) => {
  const lines = [`cost of the ${feature.feature} (two APIs side by side, off and on, load alternated in slices; ${feature.switch}):`];
  for (const { name, loadGenerator } of feature.scenarios) {
    const of = (mode) => results.filter((r) => r.name === name && r.mode === mode);
    if (of('off').length === 0) continue;
    const booking = name.startsWith('booking');
    const figures = (mode) => {
      const runs = of(mode);
      const requests = runs.reduce((sum, r) => sum + r.result.requests.total, 0);
      const cpuUs = runs.reduce((sum, r) => sum + (r.serverUs ?? NaN) * r.result.requests.total, 0);
      const postgresUs = runs.reduce((sum, r) => sum + (r.postgresUs ?? NaN) * r.result.requests.total, 0);
      return {
        // Total CPU over total requests: a slice that served more weighs more, as it would in a longer run.
        cpu: cpuUs / Math.max(1, requests),
        postgres: postgresUs / Math.max(1, requests),
        rps: mean(runs.map((r) => r.result.requests.average)),
        // The share of the measured time the API spent on CPU: 1 when saturated.
        busy: cpuUs / (runs.length * durationSeconds * 1e6),
        booked: mean(runs.map((r) => (r.result.statusCodeStats?.['201']?.count ?? 0) / durationSeconds)),
        each: runs.map((r) => Math.round(r.serverUs ?? NaN)).join(', '),
      };
    };
    const off = figures('off');
    const on = figures('on');
    const rate = (f) => (booking ? `${Math.round(f.booked)} booked/s` : `${Math.round(f.rps)} req/s`);
    const busy = (f) => (booking ? '' : `, API busy ${Math.round(f.busy * 100)} %`);
    lines.push(`  ${name}${loadGenerator ? ` (load from ${loadGenerator})` : ''}:`);
    const line = (label, f) => `    ${label} API CPU ${Math.round(f.cpu)} µs/req (slices: ${f.each}), Postgres CPU ${Math.round(f.postgres)} µs/req, ${rate(f)}${busy(f)}`;
    lines.push(line('off:', off));
    lines.push(line('on: ', on));
    if (!booking && Math.min(off.busy, on.busy) < SATURATED) {
      lines.push(`    not comparable: an API was busy less than ${SATURATED * 100} % of the time, so it served fewer requests per turn and each cost more`);
    }
    const cpuGrowth = ((on.cpu - off.cpu) / off.cpu) * 100;
    const rateDrop = booking ? ((off.booked - on.booked) / off.booked) * 100 : ((off.rps - on.rps) / off.rps) * 100;
    const budget = feature.budgetPercent === null ? '' : ` (budget ${feature.budgetPercent} %)`;
    lines.push(
      `    the ${feature.feature} costs ${Math.round(on.cpu - off.cpu)} µs, ${cpuGrowth.toFixed(1)} % API CPU per request${budget}; ` +
        `${booking ? 'bookings' : 'throughput'} ${rateDrop >= 0 ? 'down' : 'up'} ${Math.abs(rateDrop).toFixed(1)} %`,
    );
  }
  return lines;
};
