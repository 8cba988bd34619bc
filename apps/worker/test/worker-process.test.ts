import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DELIVERY_LEASE_MS } from '@garage/domain';
import { makeDeliveryQueue, makeOutbox } from '@garage/postgres';
import { createTestDatabase, insertGarage, insertIntegration } from '@garage/postgres/testing';
import { Webhook } from 'standardwebhooks';
import t from 'tap';
import { sleep, newEncryptionKey } from '@garage/domain/testing';
import { startReceiver } from '@garage/webhook-delivery/testing';

// The built worker, run the way operators run it (`pnpm worker`). The package's test script builds it first.
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the worker first (pnpm -F @garage/worker build)`);

const database = await createTestDatabase('workerproc');
t.teardown(database.drop);
const { db } = database.handle;
const encryption = newEncryptionKey();

const startWorker = (env: Record<string, string> = {}): ChildProcess & { output: () => string } => {
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      ENCRYPTION_KEY: encryption.env,
      WEBHOOK_RETRY_SCHEDULE: '100ms,100ms',
      // The test's receiver listens on loopback, which webhooks reach only where allowed.
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
      LOG_LEVEL: 'info',
      PORT: '0',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  t.teardown(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  return Object.assign(child, { output: () => output });
};

const exitOf = async (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? { code: child.exitCode, signal: child.signalCode }
    : once(child, 'exit').then(([code, signal]) => ({ code, signal }));

const newEvent = async (url: string) => {
  const garageId = await insertGarage(db);
  const integration = await insertIntegration(db, garageId, { webhookUrl: url, secretBox: encryption.secretBox });
  await db.transaction().execute((trx) => makeOutbox(trx).enqueue({ garageId, type: 'quote.accepted', data: { id: 'q1' } }));
  return integration;
};

t.test('a worker killed while the receiver holds the request open loses nothing', async (t) => {
  let holding: (() => void) | undefined;
  const receiver = await startReceiver(async (_req, res, index) => {
    if (index === 0) {
      // The first attempt never gets an answer: the worker dies waiting for it.
      await new Promise<void>((resolve) => (holding = resolve));
      res.destroy();
      return;
    }
    res.writeHead(200).end();
  });
  t.teardown(() => (holding?.(), receiver.close()));
  const integration = await newEvent(`${receiver.url}/hook`);

  const first = startWorker();
  await receiver.waitFor(1, 15_000);
  first.kill('SIGKILL');
  t.same(await exitOf(first), { code: null, signal: 'SIGKILL' });
  holding?.();

  const second = startWorker();
  // The dead worker's lease has to run out first.
  await receiver.waitFor(2, DELIVERY_LEASE_MS + 10_000);
  const [lost, redelivered] = receiver.received;
  t.equal(redelivered?.headers['webhook-id'], lost?.headers['webhook-id'], 'the same webhook-id');
  t.equal(redelivered?.body, lost?.body, 'the same body');
  t.doesNotThrow(() => new Webhook(integration.plaintext).verify(redelivered!.body, redelivered!.headers));
  const status = async () => (await makeDeliveryQueue(db).listByIntegration(integration.id, 1))[0]?.status;
  for (let i = 0; i < 100 && (await status()) !== 'succeeded'; i += 1) await sleep(50);
  t.equal(await status(), 'succeeded');

  // A worker that exited has sent all it will send: the receiver's count is final.
  second.kill('SIGTERM');
  t.same(await exitOf(second), { code: 0, signal: null });
  t.equal(receiver.received.length, 2);
});

t.test('SIGTERM lets the delivery in flight finish and record, then exits 0', async (t) => {
  // The receiver answers once the worker has begun to stop: the delivery is in flight through the SIGTERM.
  let answer = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const receiver = await startReceiver(async (_req, res) => {
    await answered;
    res.writeHead(204).end();
  });
  t.teardown(() => (answer(), receiver.close()));
  const integration = await newEvent(`${receiver.url}/slow`);
  const worker = startWorker();
  await receiver.waitFor(1, 15_000);
  worker.kill('SIGTERM');
  for (let i = 0; i < 300 && !/finishing the deliveries in flight/.test(worker.output()); i += 1) await sleep(50);
  answer();
  const exit = await exitOf(worker);
  t.same(exit, { code: 0, signal: null }, worker.output());
  const [view] = await makeDeliveryQueue(db).listByIntegration(integration.id, 1);
  t.equal(view?.status, 'succeeded', 'recorded before exit: it will not be sent again');
  t.match(worker.output(), /webhook delivered/);
});

t.test('the worker serves /health/live, /health/ready and /metrics on its own listeners', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  await newEvent(`${receiver.url}/hooks`);
  const worker = startWorker();
  const started = /"health":"([^"]+)","metrics":"([^"]+)"/;
  const deadline = Date.now() + 20_000;
  while (!started.test(worker.output()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const [, health, metrics] = started.exec(worker.output()) ?? [];
  t.ok(health && metrics, 'the start line names both listeners');
  const ready = await fetch(`http://${health}/health/ready`);
  t.equal(ready.status, 200);
  t.same(await ready.json(), { status: 'ok', checks: { postgres: 'up', redis: 'absent', draining: false } });
  t.equal((await fetch(`http://${health}/health/live`)).status, 200);
  await receiver.waitFor(1);
  let text = '';
  for (let i = 0; i < 50 && !/webhook_deliveries_total\{result="succeeded"\} 1/.test(text); i += 1) {
    text = await (await fetch(`http://${metrics}/metrics`)).text();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.match(text, /webhook_deliveries_total\{result="succeeded"\} 1/, 'the delivery is counted');
  t.match(text, /data_oldest_row_age_seconds\{table="webhook_events"\} \d+/, 'the retention job runs here too, its metrics beside');
  worker.kill('SIGTERM');
  t.equal((await exitOf(worker)).code, 0);
});

t.test('bad configuration stops the worker at start with a message and a non-zero exit', async (t) => {
  const worker = startWorker({ WEBHOOK_RETRY_SCHEDULE: 'soon' });
  const exit = await exitOf(worker);
  t.not(exit.code, 0);
  t.match(worker.output(), /Invalid configuration: WEBHOOK_RETRY_SCHEDULE/);
});
