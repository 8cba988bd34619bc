import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeUnitOfWork } from '@garage/postgres';
import { Webhook } from 'standardwebhooks';
import t, { type Test } from 'tap';
import { build, LOOPBACK_WEBHOOKS } from './helper.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback that records what it gets and answers with the given statuses, then 200. */
const receiver = async (t: Test, statuses: number[] = []) => {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
};

const waitFor = async (condition: () => boolean, timeoutMs = 15_000) => {
  const until = Date.now() + timeoutMs;
  while (!condition() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return condition();
};

t.test('the API process delivers webhooks itself by default, signed and retried with the same webhook-id', async (t) => {
  const hook = await receiver(t, [500]);
  const { app, admin, db } = await build(t, { env: { WEBHOOK_RETRY_SCHEDULE: '100ms', ...LOOPBACK_WEBHOOKS } });
  await admin.createGarage({ slug: 'hooked', name: 'Hooked' });
  const created = await admin.createIntegration({ garageSlug: 'hooked', name: 'shop', sync: [], webhookUrl: hook.url });
  await app.ready();
  const garageId = created.integration.garageId;
  await makeUnitOfWork(db.handle.db).run((tx) =>
    tx.outbox.enqueue({ garageId, type: 'lead.created', data: { id: 'lead-1', name: 'Jeanne' } }),
  );
  t.ok(await waitFor(() => hook.received.length >= 2), 'a failed attempt is retried');
  const [first, second] = hook.received;
  t.equal(first?.headers['webhook-id'], second?.headers['webhook-id'], 'the same webhook-id on every retry');
  const payload = new Webhook(created.webhookSecret).verify(second!.body, second!.headers as Record<string, string>);
  t.match(payload, { type: 'lead.created', data: { id: 'lead-1', name: 'Jeanne' } });
});

t.test('with DELIVER_WEBHOOKS=false the API leaves delivery to dedicated workers', async (t) => {
  const hook = await receiver(t);
  const { app, admin, db } = await build(t, { env: { DELIVER_WEBHOOKS: 'false', ...LOOPBACK_WEBHOOKS } });
  await admin.createGarage({ slug: 'quiet', name: 'Quiet' });
  const created = await admin.createIntegration({ garageSlug: 'quiet', name: 'shop', sync: [], webhookUrl: hook.url });
  await app.ready();
  await makeUnitOfWork(db.handle.db).run((tx) =>
    tx.outbox.enqueue({ garageId: created.integration.garageId, type: 'lead.created', data: { id: 'lead-2' } }),
  );
  await waitFor(() => hook.received.length > 0, 2500);
  t.equal(hook.received.length, 0, 'nothing was sent by the API');
  const pending = await db.handle.db.selectFrom('webhook_deliveries').select('status').execute();
  t.same(pending, [{ status: 'pending' }], 'the delivery waits for a worker');
});
