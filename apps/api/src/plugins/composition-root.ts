import { chmod, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  DEMO_GARAGE_SLUG,
  appointmentCreatedEvent,
  cacheKeyLookup,
  makeAdminUseCases,
  makeAuthenticate,
  makeBookAppointment,
  makeCursorCodec,
  makeDecideQuote,
  makeGetQuote,
  makeGetVehicle,
  makeIdempotent,
  makeListAvailability,
  makeListProducts,
  makeListStock,
  makeListVehicles,
  makeResolveFleetGarage,
  makeSecretBox,
  makeSubmitLead,
  systemClock,
  type Clock,
  type DemoCredentials,
  type IdempotencyStore,
  type Repositories,
  type UnitOfWork,
} from '@garage/domain';
import { deriveSubkey, makeDeliveryQueue, makeListVersionProbe, makeRepositories, makeUnitOfWork, migrateToLatest, openStorage, type Storage } from '@garage/postgres';
import { makeAppointmentRepository, makeBookingTx, makeIdempotencyStore, type Db } from '@garage/postgres';
import { connectRedis, pingRedis, waitForRedis, watchRedis, type Redis } from '@garage/redis';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { makeWebhookDelivery } from '@garage/worker';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { toHttpError } from './error-handler.js';

/**
 * How long a key lookup is trusted on one instance. Revoking or rotating a key must take effect everywhere within
 * 5 s (CONTRACT.md §6); 2 s leaves room for clock skew and a slow query.
 */
export const KEY_CACHE_TTL_MS = 2000;

/** The use-cases the routes call, wired to the concrete adapters. Later features add theirs here. */
const makeUseCases = ({ repos, uow, clock, cursorSecrets, keyCacheTtlMs, log }: {
  repos: Repositories;
  uow: UnitOfWork;
  clock: Clock;
  /** One per encryption key, the active key's first (see `makeCursorCodec`). */
  cursorSecrets: Buffer[];
  keyCacheTtlMs: number;
  log: FastifyBaseLogger;
}) => {
  const cursors = makeCursorCodec(cursorSecrets);
  const authenticate = makeAuthenticate({
    findByKeyHash: cacheKeyLookup((hash) => repos.integrations.findActiveByKeyHash(hash), { ttlMs: keyCacheTtlMs, clock }),
    integrations: repos.integrations,
    clock,
    onTouchError: (err) => log.warn({ err }, 'could not record the last use of an API key'),
  });
  return {
    authenticate,
    resolveFleetGarage: makeResolveFleetGarage({
      authenticate,
      // A slug always names the same garage; a garage created after a 404 is found within the same window as a key.
      garages: { findBySlug: cacheKeyLookup((slug) => repos.garages.findBySlug(slug), { ttlMs: keyCacheTtlMs, clock }) },
    }),
    listProducts: makeListProducts({ products: repos.products, cursors }),
    listStock: makeListStock({ stock: repos.stock, cursors }),
    listVehicles: makeListVehicles({ vehicles: repos.vehicles, cursors }),
    getVehicle: makeGetVehicle({ vehicles: repos.vehicles }),
    submitLead: makeSubmitLead({ vehicles: repos.vehicles, uow }),
    getQuote: makeGetQuote({ quotes: repos.quotes, clock }),
    decideQuote: makeDecideQuote({ quotes: repos.quotes, uow, clock }),
  };
};

/**
 * Booking (CONTRACT.md §4.1) and the Idempotency-Key rules. Each booking is one transaction holding the booking lock
 * of its garage and day; its `appointment.created` event is written by the outbox of that same transaction.
 */
const makeBookingUseCases = ({ db, repos, clock, idempotencyStore }: {
  db: Db;
  repos: Repositories;
  clock: Clock;
  idempotencyStore: IdempotencyStore;
}) => ({
  bookAppointment: makeBookAppointment({
    garages: repos.garages,
    products: repos.products,
    bookingTx: makeBookingTx(db),
    clock,
    onBooked: (tx, appointment, garage) => tx.outbox.enqueue(appointmentCreatedEvent(appointment, garage.booking.timezone)),
  }),
  listAvailability: makeListAvailability({ garages: repos.garages, appointments: makeAppointmentRepository(db), clock }),
  // The error handler's own mapping decides which thrown errors become stored responses.
  runIdempotently: makeIdempotent({ store: idempotencyStore, clock, toResponse: toHttpError }),
});

/** How often each instance deletes Idempotency-Key records past their 24 hours; any instance may do it. */
export const IDEMPOTENCY_PURGE_INTERVAL_MS = 15 * 60_000;

/** Deletes expired Idempotency-Key records every `intervalMs` until the app closes; never keeps the process alive. */
const purgeIdempotencyKeys = (app: FastifyInstance, store: IdempotencyStore, clock: Clock, intervalMs: number) => {
  const timer = setInterval(() => {
    store.purgeExpired(clock.now()).then(
      (purged) => {
        if (purged > 0) app.log.info({ purged }, 'expired idempotency keys purged');
      },
      (err: unknown) => app.log.warn({ err }, 'could not purge expired idempotency keys; retrying at the next interval'),
    );
  }, intervalMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
};

export type ApiUseCases = ReturnType<typeof makeUseCases> & ReturnType<typeof makeBookingUseCases>;

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
    /** Shared state between instances (rate-limit counters); null without REDIS_URL. */
    redis: Redis | null;
  }
}

export interface CompositionOptions {
  config: Config;
  /** Tests move time without waiting. */
  clock?: Clock;
  keyCacheTtlMs?: number;
  idempotencyPurgeIntervalMs?: number;
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
  const admin = makeAdminUseCases({
    repos,
    uow,
    secretBox: makeSecretBox(storage.encryptionKeys),
    clock,
    deliveries: makeDeliveryQueue(storage.handle.db),
  });
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
 * In-process webhook delivery (CONTRACT.md §5: one process is a complete system). Hooks run in reverse order of
 * registration on close, so the loop, registered after the database hook, stops (finishing its in-flight batch)
 * before the database closes.
 */
const startWebhookDelivery = (app: FastifyInstance, storage: Storage, config: Config) => {
  const loop = makeWebhookDelivery({
    db: storage.handle.db,
    encryptionKeys: storage.encryptionKeys,
    schedule: config.webhookRetryScheduleMs,
    logger: app.log,
    onDelivery: app.metrics.recordWebhookDelivery,
  }).start();
  app.addHook('onClose', () => loop.stop());
};

/**
 * Redis holds the rate-limit counters that instances share. Start-up waits briefly for the connection but never fails
 * on it: while Redis is unreachable the limits are simply not enforced (CONTRACT.md §4.5), readiness answers 503, and a
 * warning is logged when the outage starts (refused, dropped or hung) and then once a minute, not once per request.
 */
const openRedis = async (app: FastifyInstance, url: string): Promise<Redis> => {
  const redis = connectRedis({ url });
  const stopWatching = watchRedis(redis, {
    onDown: (err) => app.log.warn({ err }, 'Redis unreachable: per-IP rate limits are not enforced until it is back'),
    onUp: () => app.log.info('Redis reachable again: per-IP rate limits are enforced'),
  });
  app.addHook('onClose', async () => {
    stopWatching();
    redis.disconnect();
  });
  app.readiness.add('redis', () => pingRedis(redis));
  await waitForRedis(redis);
  return redis;
};

/**
 * The composition root: the only place that knows the concrete adapters. It opens the database named by the
 * configuration (PGlite when there is none), migrates it, seeds the demo in embedded mode, and decorates the instance
 * with the use-cases the routes call. The database is closed when the app closes, after in-flight requests.
 */
export default fp(
  async (
    app: FastifyInstance,
    {
      config,
      clock = systemClock,
      keyCacheTtlMs = KEY_CACHE_TTL_MS,
      idempotencyPurgeIntervalMs = IDEMPOTENCY_PURGE_INTERVAL_MS,
    }: CompositionOptions,
  ) => {
    const storage = await openStorage({
      databaseUrl: config.databaseUrl ?? undefined,
      pgliteDir: config.pgliteDir,
      encryptionKey: config.encryptionKey ?? undefined,
      previousEncryptionKeys: config.previousEncryptionKeys,
      logger: { warn: (msg) => app.log.warn(msg) },
    });
    app.addHook('onClose', () => storage.handle.close());
    if (storage.handle.pool) app.metrics.observePool(storage.handle.pool);

    if (config.migrateOnStart) {
      const migrated = await migrateToLatest(storage.handle.db);
      if (migrated.length > 0) app.log.info({ migrated }, 'database migrated');
    }

    const repos = makeRepositories(storage.handle.db);
    const idempotencyStore = makeIdempotencyStore(storage.handle.db);
    app.decorate('useCases', {
      ...makeUseCases({
        repos,
        uow: makeUnitOfWork(storage.handle.db),
        clock,
        cursorSecrets: storage.encryptionKeys.map((key) => deriveSubkey([key], 'cursor')),
        keyCacheTtlMs,
        log: app.log,
      }),
      ...makeBookingUseCases({ db: storage.handle.db, repos, clock, idempotencyStore }),
    });
    app.decorate('listVersionProbe', makeListVersionProbe(storage.handle.db));
    purgeIdempotencyKeys(app, idempotencyStore, clock, idempotencyPurgeIntervalMs);
    app.decorate('demo', storage.embedded ? await ensureDemo(storage, { repos, uow: makeUnitOfWork(storage.handle.db), clock }) : null);
    app.readiness.add('database', () => storage.handle.ping());
    app.decorate('redis', config.redisUrl ? await openRedis(app, config.redisUrl) : null);
    if (config.deliverWebhooks) startWebhookDelivery(app, storage, config);
  },
  { name: 'composition-root', dependencies: ['readiness', 'metrics'] },
);
