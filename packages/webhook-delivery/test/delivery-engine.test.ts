import { parseRetrySchedule } from '@garage/domain';
import { makeOutbox } from '@garage/postgres';
import { newEncryptionKey } from '@garage/domain/testing';
import { memoryLogger, startReceiver } from '@garage/webhook-delivery/testing';
import { backends, insertGarage, insertIntegration } from '@garage/postgres/testing';
import t from 'tap';
import { API_VERSIONS } from '@garage/versions';
import { makeWebhookDelivery } from '../src/webhook-delivery.js';

const encryption = newEncryptionKey();
/** Longer than any test: a delivery that arrives was woken by the commit, not found by the safety poll. */
const NO_POLL = { pollIntervalMs: 600_000 };

for (const backend of backends) {
  t.test(`on ${backend.name}`, async (t) => {
    const database = await backend.open();
    t.teardown(database.drop);
    const { db } = database.handle;
    /** Resolves once an engine listens for commits: from then on, a commit wakes it. */
    let listening: Promise<void> = Promise.resolve();
    const listen: typeof database.handle.listen = (channel, onNotify) => {
      const stop = database.handle.listen(channel, onNotify);
      listening = stop.then(() => undefined);
      return stop;
    };
    const engine = (options = {}) =>
      makeWebhookDelivery({
        db,
        listen,
        encryptionKeys: encryption.keys,
        schedule: parseRetrySchedule('1h'),
        versions: API_VERSIONS,
        logger: memoryLogger(),
        // The receivers listen on loopback, refused by default.
        allowedNetworks: ['127.0.0.0/8', '::1/128'],
      }).start({ ...NO_POLL, ...options });

    t.test('a commit wakes the engine: the first attempt does not wait for a poll', async (t) => {
      const receiver = await startReceiver();
      t.teardown(receiver.close);
      const garageId = await insertGarage(db);
      await insertIntegration(db, garageId, { webhookUrl: `${receiver.url}/hooks`, secretBox: encryption.secretBox });
      const running = engine();
      t.teardown(running.stop);
      await listening;
      for (let i = 0; i < 3; i++) {
        await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: { i } });
        await receiver.waitFor(i + 1, 5_000);
      }
      t.equal(receiver.received.length, 3, 'each event delivered on its commit, with no poll in ten minutes');
    });

    t.test('a receiver that hangs holds a few slots; another receiver gets its events meanwhile', async (t) => {
      const hanging = await startReceiver(() => new Promise<void>(() => {}));
      const healthy = await startReceiver();
      t.teardown(async () => {
        await running.stop();
        await Promise.all([hanging.close(), healthy.close()]);
      });
      const garageId = await insertGarage(db);
      await insertIntegration(db, garageId, { webhookUrl: `${hanging.url}/slow`, secretBox: encryption.secretBox });
      await insertIntegration(db, garageId, { webhookUrl: `${healthy.url}/fast`, secretBox: encryption.secretBox });
      // A backlog for both: every event goes to both integrations, the hanging one first in the queue.
      for (let i = 0; i < 20; i++) await makeOutbox(db).enqueue({ garageId, type: 'lead.created', data: { i } });
      const running = engine({ maxInFlight: 8, perIntegration: 4 });
      // The hanging receiver answers nothing for 10 s (the attempt timeout); the healthy one must not wait for it.
      await healthy.waitFor(20, 8_000);
      t.equal(healthy.received.length, 20, 'every event reached the healthy receiver while the other hung');
      t.equal(hanging.received.length, 4, 'the hanging receiver holds at most perIntegration attempts');
    });
  });
}
