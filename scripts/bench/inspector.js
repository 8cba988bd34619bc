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

/** Runs `work` with the API's CPU profiler on; writes `<dir>/<name>.cpuprofile` and returns its path. */
export const profiled = async (inspector, dir, name, work) => {
  await inspector.send('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await inspector.send('Profiler.stop');
    writeFileSync(join(dir, `${name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}.cpuprofile`), JSON.stringify(profile));
  }
};
