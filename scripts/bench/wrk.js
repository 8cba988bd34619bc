// wrk as the load generator, for a scenario whose figure must not depend on how much CPU the load generator is left:
// ~13 µs of CPU per 40 KB page here against autocannon's ~35, most of it the kernel's, so on a machine of two CPUs
// the API stays saturated even when Postgres takes more of them. Gives the part of autocannon's result the reports
// read.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A JavaScript string as a Lua literal: the requests' paths and headers are printable ASCII, where both agree. */
const luaString = (value) => {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`wrk: not printable ASCII: ${JSON.stringify(value)}`);
  return JSON.stringify(value);
};

/** A script sending `requests` in turn, and printing the counts the result needs once the run ends. */
const script = (requests, host) => {
  const formatted = requests.map(({ method, path, headers = {} }) => {
    // `Host` spelled so: wrk.format adds its own unless the table has that key.
    const fields = Object.entries({ Host: host, ...headers }).map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`);
    return `  wrk.format(${luaString(method)}, ${luaString(path)}, { ${fields.join(', ')} }),`;
  });
  return [
    'local requests = {',
    ...formatted,
    '}',
    'local sent = 0',
    'request = function()',
    '  sent = sent + 1',
    '  return requests[(sent % #requests) + 1]',
    'end',
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("RESULT %d %d %d\\n", summary.requests, e.status, e.connect + e.read + e.write + e.timeout))',
    'end',
    '',
  ].join('\n');
};

/**
 * Drives `url` with `requests` (each `{method, path, headers}`, no body) over `connections` for `duration` seconds.
 * Resolves to `{requests: {total, average}}`. A status from 400 up or a socket error fails the run, as an unexpected
 * status does in the rest of the bench: a fast wrong answer is not a result.
 */
export const fireWrk = async ({ url, requests, connections, duration }) => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-wrk-'));
  try {
    const file = join(dir, 'requests.lua');
    writeFileSync(file, script(requests, new URL(url).host));
    let stdout;
    try {
      ({ stdout } = await run('wrk', ['-t1', `-c${connections}`, `-d${duration}s`, '-s', file, url], { encoding: 'utf8' }));
    } catch (err) {
      if (err.code === 'ENOENT') throw new Error('wrk is not installed: the request log part of the bench needs it (apt-get install wrk)');
      throw err;
    }
    const counts = /^RESULT (\d+) (\d+) (\d+)$/m.exec(stdout);
    if (!counts) throw new Error(`wrk printed no result:\n${stdout}`);
    const [total, failed, errors] = counts.slice(1).map(Number);
    if (failed > 0 || errors > 0) throw new Error(`wrk on ${url}: ${failed} responses with a status from 400 up and ${errors} socket errors in ${total}`);
    return { requests: { total, average: total / duration } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
