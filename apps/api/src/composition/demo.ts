import { chmod, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DEMO_GARAGE_SLUG, demoIntegrationCredentials, systemClock, type Clock, type DemoCredentials } from '@garage/domain';
import { makeRepositories } from '@garage/postgres';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { makeAdminUseCases, type Storage } from '@garage/composition';

/** What an embedded start tells its operator: a working key, and where all demo credentials are kept. */
export interface DemoAccess {
  apiKey: string;
  /** The same integration's test key: its sandbox (docs/connectors/testing-your-integration.md). */
  testApiKey: string;
  credentialsFile: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set on an embedded (PGlite) start only. */
    demo: DemoAccess | null;
  }
}

const readCredentials = async (file: string): Promise<DemoCredentials | null> => {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as DemoCredentials;
  } catch {
    return null;
  }
};

/**
 * Embedded mode seeds the demo garage on its first start. Keys are stored only as hashes, so the credentials are kept
 * in a file readable by the operator alone; should it be lost, a new demo integration is issued rather than leaving
 * the demo without a key.
 */
const ensureDemo = async (storage: Storage, clock: Clock, apiVersion: string): Promise<DemoAccess> => {
  const credentialsFile = join(dirname(storage.dataDir ?? '.'), 'demo-credentials.json');
  const admin = makeAdminUseCases(storage.handle.db, storage.encryptionKeys, { clock });
  const seeded = (await makeRepositories(storage.handle.db).garages.findBySlug(DEMO_GARAGE_SLUG)) !== null;
  let credentials = seeded ? await readCredentials(credentialsFile) : null;
  if (!seeded) {
    credentials = await admin.seedDemo({ apiVersion });
  } else if (!credentials?.integrations[0]) {
    const created = await admin.createIntegration({
      garageSlug: DEMO_GARAGE_SLUG,
      name: 'Demo shop',
      sync: ['appointments', 'catalog', 'stock'],
      apiVersion,
      webhookUrl: null,
    });
    credentials = { garage: DEMO_GARAGE_SLUG, integrations: [demoIntegrationCredentials(created)], quotes: [] };
  }
  const [integration] = credentials?.integrations ?? [];
  if (!credentials || !integration) throw new Error('demo seeding returned no integration');
  // Credentials kept before sandboxes existed: the demo integration gets its sandbox and first test key now.
  if (integration.testApiKey === undefined) {
    const rotated = await admin.rotateTestKey(integration.id);
    const secret = await admin.rotateTestWebhookSecret(integration.id, { overlapHours: 0 });
    const [listed] = (await admin.listIntegrations(DEMO_GARAGE_SLUG)).filter((i) => i.id === integration.id);
    Object.assign(integration, {
      testApiKey: rotated.testApiKey,
      testWebhookSecret: secret.testWebhookSecret,
      sandboxGarageSlug: listed?.sandbox?.garageSlug ?? '',
    });
  }
  await writeFile(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(credentialsFile, 0o600);
  return { apiKey: integration.apiKey, testApiKey: integration.testApiKey, credentialsFile };
};

/** Seeds the demo on an embedded start; `demo` is null on a real database. */
export default fp(
  async (app: FastifyInstance, { clock = systemClock }: { clock?: Clock }) => {
    app.decorate('demo', app.storage.embedded ? await ensureDemo(app.storage, clock, app.apiVersions.latest) : null);
  },
  { name: 'demo', dependencies: ['storage', 'api-versions'] },
);
