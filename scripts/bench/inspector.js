// A CPU profile of the API per scenario (a profile of each path), taken through the inspector protocol of
// the API process, which `pnpm bench -- --profile` starts with `--inspect` on a loopback port. Profiling only while a
// scenario runs keeps start-up and the bench's own fixture reads out of each path's profile.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Connects to the inspector on `port`; returns `send(method, params)` and `close()`. */
export const connectInspector = async (port) => {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 1;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`${message.error.message} (${message.error.code})`));
    else waiter.resolve(message.result);
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  return { send, close: () => socket.close() };
};

/**
 * A sample every this many bytes allocated: fine enough to name what a request allocates to within a few bytes over a
 * scenario's thousands of requests.
 */
const ALLOCATION_SAMPLING_BYTES = 1024;

/**
 * Runs `work` (a scenario's measure) with the API's CPU profiler and its allocation sampler on; writes
 * `<dir>/<name>.cpuprofile`, `<name>.heapprofile` (every allocation sampled, the garbage collected included) and
 * `<name>.requests` (the requests the scenario sent, to tell allocations per request).
 * Bytes allocated per request hardly move with the neighbours' load, where CPU time does: on a shared machine they
 * show a change on the request path that a run's throughput cannot.
 */
export const profiled = async (inspector, dir, name, work) => {
  const file = join(dir, name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, ''));
  await inspector.send('HeapProfiler.startSampling', {
    samplingInterval: ALLOCATION_SAMPLING_BYTES,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await inspector.send('Profiler.start');
  let measured;
  try {
    measured = await work();
    return measured;
  } finally {
    const { profile } = await inspector.send('Profiler.stop');
    writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
    const allocations = await inspector.send('HeapProfiler.stopSampling');
    writeFileSync(`${file}.heapprofile`, JSON.stringify(allocations.profile));
    if (measured) writeFileSync(`${file}.requests`, String(measured.result.requests.total));
  }
};
