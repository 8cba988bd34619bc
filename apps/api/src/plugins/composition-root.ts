import { chmod, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  DEMO_GARAGE_SLUG,
  cacheKeyLookup,
  makeAdminUseCases,
  makeAuthenticate,
  makeCursorCodec,
  makeGetVehicle,
  makeListProducts,
  makeListStock,
  makeListVehicles,
  makeResolveFleetGarage,
  makeSecretBox,
  systemClock,
  type Clock,
  type DemoCredentials,
  type Repositories,
  type UnitOfWork,
} from '@garage/domain';
import { deriveSubkey, makeRepositories, makeUnitOfWork, migrateToLatest, openStorage, type Storage } from '@garage/postgres';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';

/**
 * How long a key lookup is trusted on one instance. Revoking or rotating a key must take effect everywhere within
 * 5 s (CONTRACT.md §6); 2 s leaves room for clock skew and a slow query.
 */
export const KEY_CACHE_TTL_MS = 2000;

/** The use-cases the routes call, wired to the concrete adapters. Later features add theirs here. */
const makeUseCases = ({ repos, clock, cursorSecret, keyCacheTtlMs, log }: {
  repos: Repositories;
  clock: Clock;
  cursorSecret: Buffer;
  keyCacheTtlMs: number;
  log: FastifyBaseLogger;
}) => {
  const cursors = makeCursorCodec(cursorSecret);
  const authenticate = makeAuthenticate({
    findByKeyHash: cacheKeyLookup((hash) => repos.integrations.findActiveByKeyHash(hash), { ttlMs: keyCacheTtlMs, clock }),
    integrations: repos.integrations,
    clock,
    onTouchError: (err) => log.warn({ err }, 'could not record the last use of an API key'),
  });
  return {
    authenticate,
    resolveFleetGarage: makeResolveFleetGarage({ authenticate, garages: repos.garages }),
    listProducts: makeListProducts({ products: repos.products, cursors }),
    listStock: makeListStock({ stock: repos.stock, cursors }),
    listVehicles: makeListVehicles({ vehicles: repos.vehicles, cursors }),
    getVehicle: makeGetVehicle({ vehicles: repos.vehicles }),
  };
};

export type ApiUseCases = ReturnType<typeof makeUseCases>;

/** What an embedded start tells its operator: a working key, and where all demo credentials are kept. */
export interface DemoAccess {
  apiKey: string;
  credentialsFile: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    useCases: ApiUseCases;
    /** Set on an embedded (PGlite) start only. */
    demo: DemoAccess | null;
  }
}

export interface CompositionOptions {
  config: Config;
  /** Tests move time without waiting. */
  clock?: Clock;
  keyCacheTtlMs?: number;
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
const ensureDemo = async (
  storage: Storage,
  { repos, uow, clock }: { repos: Repositories; uow: UnitOfWork; clock: Clock },
): Promise<DemoAccess> => {
  const credentialsFile = join(dirname(storage.dataDir ?? '.'), 'demo-credentials.json');
  const admin = makeAdminUseCases({ repos, uow, secretBox: makeSecretBox(storage.encryptionKeys), clock });
  const seeded = (await repos.garages.findBySlug(DEMO_GARAGE_SLUG)) !== null;
  let credentials = seeded ? await readCredentials(credentialsFile) : null;
  if (!seeded) {
    credentials = await admin.seedDemo();
  } else if (!credentials?.integrations[0]) {
    const created = await admin.createIntegration({
      garageSlug: DEMO_GARAGE_SLUG,
      name: 'Demo shop',
      sync: ['appointments', 'catalog', 'stock'],
      webhookUrl: null,
    });
    credentials = {
      garage: DEMO_GARAGE_SLUG,
      integrations: [{ id: created.integration.id, name: created.integration.name, apiKey: created.apiKey, webhookSecret: created.webhookSecret }],
      quotes: [],
    };
  }
  const [integration] = credentials?.integrations ?? [];
  if (!credentials || !integration) throw new Error('demo seeding returned no integration');
  await writeFile(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(credentialsFile, 0o600);
  return { apiKey: integration.apiKey, credentialsFile };
};

/**
 * The composition root: the only place that knows the concrete adapters. It opens the database named by the
 * configuration (PGlite when there is none), migrates it, seeds the demo in embedded mode, and decorates the instance
 * with the use-cases the routes call. The database is closed when the app closes, after in-flight requests.
 */
export default fp(
  async (app: FastifyInstance, { config, clock = systemClock, keyCacheTtlMs = KEY_CACHE_TTL_MS }: CompositionOptions) => {
    const storage = await openStorage({
      databaseUrl: config.databaseUrl ?? undefined,
      pgliteDir: config.pgliteDir,
      encryptionKey: config.encryptionKey ?? undefined,
      logger: { warn: (msg) => app.log.warn(msg) },
    });
    app.addHook('onClose', () => storage.handle.close());

    const migrated = await migrateToLatest(storage.handle.db);
    if (migrated.length > 0) app.log.info({ migrated }, 'database migrated');

    const repos = makeRepositories(storage.handle.db);
    app.decorate('useCases', makeUseCases({
      repos,
      clock,
      cursorSecret: deriveSubkey(storage.encryptionKeys, 'cursor'),
      keyCacheTtlMs,
      log: app.log,
    }));
    app.decorate('demo', storage.embedded ? await ensureDemo(storage, { repos, uow: makeUnitOfWork(storage.handle.db), clock }) : null);
    app.readiness.add('database', () => storage.handle.ping());
  },
  { name: 'composition-root', dependencies: ['readiness'] },
);
