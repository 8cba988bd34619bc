// The cost of the request log (docs/reference/contract.md §10): the cached products page and bookings across days on
// fresh APIs over the same data, with the log off (REQUEST_LOG=off) and on (the default), alternated twice so that a
// machine whose load drifts weighs on both alike. Compare the API's CPU per request: on a shared machine, throughput
// moves with the neighbours, CPU per request much less.
import { buildScenarios } from './scenarios.js';
import { startApi } from './servers.js';

const SCENARIOS = ['products limit=100', 'booking across days, one request per place'];
const ROUNDS = [
  { mode: 'off', env: { REQUEST_LOG: 'off' } },
  { mode: 'on', env: {} },
  { mode: 'off', env: { REQUEST_LOG: 'off' } },
  { mode: 'on', env: {} },
];

/** Resolves to one result per round and scenario: `{mode, name, result, serverUs}` as the bench's `measure` gives. */
export const benchRequestLog = async ({ apiOptions, bare, fixtures, warmUp, measure, log }) => {
  const results = [];
  for (const round of ROUNDS) {
    const api = await startApi({ ...apiOptions, env: round.env });
    try {
      for (const scenario of buildScenarios({ api, bare, fixtures }).filter((s) => SCENARIOS.includes(s.name))) {
        log(`request log ${round.mode}: ${scenario.name}…`);
        if (scenario.warmup) await warmUp(scenario);
        results.push({ mode: round.mode, name: scenario.name, ...(await measure(scenario, api)) });
      }
    } finally {
      await api.stop();
    }
  }
  return results;
};

/** Lines for the report: each scenario's mean CPU per request and throughput, off and on, and the difference. */
export const requestLogReport = (results, durationSeconds) => {
  const lines = ['cost of the request log (fresh API per round, off/on alternated twice; REQUEST_LOG=off vs the default on):'];
  for (const name of SCENARIOS) {
    const of = (mode) => results.filter((r) => r.name === name && r.mode === mode);
    const mean = (values) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    const figures = (mode) => {
      const runs = of(mode);
      const booked = runs.map((r) => (r.result.statusCodeStats?.['201']?.count ?? 0) / durationSeconds);
      return {
        cpu: mean(runs.map((r) => r.serverUs ?? NaN)),
        rps: mean(runs.map((r) => r.result.requests.average)),
        booked: mean(booked),
        each: runs.map((r) => Math.round(r.serverUs ?? NaN)).join(', '),
      };
    };
    const off = figures('off');
    const on = figures('on');
    if (of('off').length === 0) continue;
    const booking = name.startsWith('booking');
    const rate = (f) => (booking ? `${Math.round(f.booked)} booked/s` : `${Math.round(f.rps)} req/s`);
    lines.push(`  ${name}:`);
    lines.push(`    off: API CPU ${Math.round(off.cpu)} µs/req (${off.each}), ${rate(off)}`);
    lines.push(`    on:  API CPU ${Math.round(on.cpu)} µs/req (${on.each}), ${rate(on)}`);
    const cpuGrowth = ((on.cpu - off.cpu) / off.cpu) * 100;
    const rateDrop = booking ? ((off.booked - on.booked) / off.booked) * 100 : ((off.rps - on.rps) / off.rps) * 100;
    lines.push(`    the log costs ${cpuGrowth.toFixed(1)} % API CPU per request; ${booking ? 'bookings' : 'throughput'} ${rateDrop >= 0 ? 'down' : 'up'} ${Math.abs(rateDrop).toFixed(1)} %`);
  }
  return lines;
};
