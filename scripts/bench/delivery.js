// Webhook delivery figures: one dedicated worker, a fast receiver on loopback, events written through the
// outbox as the API writes them. Lag is commit to the receiver seeing the request; throughput is a backlog of events
// (each to every integration) drained end to end.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { makeAdminUseCases } from '../../packages/composition/dist/index.js';
import { makeDestinationPolicy, parseEncryptionKey } from '../../packages/domain/dist/index.js';
import { makeOutbox } from '../../packages/postgres/dist/index.js';
import { createTestDatabase } from '../../packages/postgres/dist/testing/databases.js';
import { startWorker } from './servers.js';

const INTEGRATIONS = 8;
export const LOOPBACK = '127.0.0.0/8';
const LAG_EVENTS = 200;
const LAG_PACE_MS = 10;
const BACKLOG_EVENTS = 1_000;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** A receiver that answers 204 at once and remembers when each (event, integration) first arrived. */
const startReceiver = async () => {
  const firstSeen = new Map();
  let total = 0;
  const waiters = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const at = performance.now();
      const key = `${JSON.parse(body).data.seq}|${req.url}`;
      if (!firstSeen.has(key)) firstSeen.set(key, at);
      total += 1;
      for (const w of waiters.filter((x) => total >= x.count)) w.resolve();
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    firstSeen,
    received: () => total,
    waitFor: (count, timeoutMs) =>
      new Promise((resolve, reject) => {
        if (total >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`only ${total} of ${count} webhooks within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      }),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
};

export const benchDelivery = async ({ encryptionKey, log }) => {
  const database = await createTestDatabase('benchhooks');
  const receiver = await startReceiver();
  let worker = null;
  try {
    // The receiver listens on loopback, which webhook destinations may not be unless allowed (docs/reference/contract.md §5).
    const admin = makeAdminUseCases(database.handle.db, [parseEncryptionKey(encryptionKey, 'ENCRYPTION_KEY')], { destinations: makeDestinationPolicy([LOOPBACK]) });
    const garage = await admin.createGarage({ slug: 'bench-hooks', name: 'Bench hooks' });
    for (let i = 0; i < INTEGRATIONS; i++) {
      await admin.createIntegration({ garageSlug: 'bench-hooks', name: `hook ${i}`, sync: [], webhookUrl: `${receiver.url}/hook/${i}` });
    }
    worker = await startWorker({ databaseUrl: database.url, encryptionKey, env: { WEBHOOK_ALLOWED_NETWORKS: LOOPBACK } });
    const outbox = makeOutbox(database.handle.db);
    const emit = (seq) => outbox.enqueue({ garageId: garage.id, type: 'lead.created', data: { seq } });

    log(`webhook delivery: lag over ${LAG_EVENTS} events, one every ${LAG_PACE_MS} ms, ${INTEGRATIONS} integrations…`);
    const committedAt = new Map();
    for (let seq = 0; seq < LAG_EVENTS; seq++) {
      await emit(seq);
      committedAt.set(seq, performance.now());
      await new Promise((resolve) => setTimeout(resolve, LAG_PACE_MS));
    }
    await receiver.waitFor(LAG_EVENTS * INTEGRATIONS, 60_000);
    const lags = [...receiver.firstSeen].map(([key, at]) => Math.max(0, at - committedAt.get(Number(key.split('|')[0]))));

    log(`webhook delivery: a backlog of ${BACKLOG_EVENTS} events committed at once…`);
    const already = receiver.received();
    const started = performance.now();
    await database.handle.db.transaction().execute(async (trx) => {
      const inTx = makeOutbox(trx);
      for (let seq = LAG_EVENTS; seq < LAG_EVENTS + BACKLOG_EVENTS; seq++) {
        await inTx.enqueue({ garageId: garage.id, type: 'lead.created', data: { seq } });
      }
    });
    const committed = performance.now();
    await receiver.waitFor(already + BACKLOG_EVENTS * INTEGRATIONS, 300_000);
    const seconds = (performance.now() - committed) / 1000;
    return {
      integrations: INTEGRATIONS,
      lagP50: percentile(lags, 50),
      lagP99: percentile(lags, 99),
      eventsPerSecond: BACKLOG_EVENTS / seconds,
      deliveriesPerSecond: (BACKLOG_EVENTS * INTEGRATIONS) / seconds,
      writeMs: committed - started,
    };
  } finally {
    await worker?.stop();
    await receiver.close();
    await database.drop();
  }
};
