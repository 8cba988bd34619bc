import { randomBytes } from 'node:crypto';
import { makeDestinationPolicy, parseEncryptionKey, type DemoCredentials } from '@garage/domain';
import { makeAdminUseCases } from '@garage/composition';
import { LOOPBACK_NETWORKS } from '@garage/composition/testing';
import { createTestDatabase } from '@garage/postgres/testing';
import type { Test } from 'tap';
import { freePort, startApiProcess } from '@garage/api/testing';

export interface DemoApi {
  url: string;
  credentials: DemoCredentials;
  /** Where the demo integration's webhooks go: `http://127.0.0.1:<webhookPort>/hooks`, nobody listening until a guide does. */
  webhookPort: number;
}

/**
 * The built API as a connector meets it after `pnpm start`: the demo garage seeded (catalog, stock, fleet, an
 * integration with every toggle on, a pending and an expired quote), on a fresh Postgres database, its webhooks sent
 * to a port on loopback (which the API is told to allow). Stopped and dropped when `t` ends.
 */
export const startDemoApi = async (t: Test): Promise<DemoApi> => {
  const database = await createTestDatabase('docs');
  t.teardown(() => database.drop());
  const encryptionKey = randomBytes(32).toString('base64');
  // The guides' receiver listens on loopback, which webhook destinations may only be when allowed.
  const admin = makeAdminUseCases(database.handle.db, [parseEncryptionKey(encryptionKey, 'ENCRYPTION_KEY')], { destinations: makeDestinationPolicy(LOOPBACK_NETWORKS.split(',')) });
  const credentials = await admin.seedDemo();
  const webhookPort = await freePort();
  await admin.updateIntegration(credentials.integrations[0]!.id, { webhookUrl: `http://127.0.0.1:${webhookPort}/hooks` });

  const { url } = await startApiProcess(t, {
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: encryptionKey,
    WEBHOOK_ALLOWED_NETWORKS: LOOPBACK_NETWORKS,
    // A failed delivery waits: the guides look at it as it is.
    WEBHOOK_RETRY_SCHEDULE: '1h',
  });
  return { url, credentials, webhookPort };
};
