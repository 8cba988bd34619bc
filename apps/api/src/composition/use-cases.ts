import { webhookBodyRenderer, type VersionRegistry } from '@garage/versions';
import {
  cachedAvailableDays,
  deriveSubkey,
  makeAuthenticate,
  makeBookAppointment,
  makeCancelAppointment,
  makeGetAppointment,
  makeListAppointments,
  makeRescheduleAppointment,
  makeCursorCodec,
  makeCreateQuote,
  makeDecideQuote,
  makeGetQuote,
  makeGetVehicle,
  makeAvailableDays,
  makeListAvailability,
  makeListProducts,
  makeListStock,
  makeListVehicles,
  makeListIntegrationDeliveries,
  makeListIntegrationEvents,
  makeLocalTime,
  makeResetSandbox,
  makeRetryDelivery,
  makeSetAppointmentStatus,
  makeSecretBox,
  makeTestWebhook,
  makeResolveFleetGarage,
  makeSubmitLead,
  makeListRequests,
  makeGetRequest,
  systemClock,
  type Clock,
} from '@garage/domain';
import {
  makeDeliveryQueue,
  makeIdempotencyStore,
  makeListVersionProbe,
  makeRenderedLists,
  makeRepositories,
  makeRequestLog,
  makeUnitOfWork,
  makeWebhookFeed,
  type DatabaseHandle,
} from '@garage/postgres';
import { makeHttpSender } from '@garage/webhook-delivery';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { makeRunIdempotently } from '../http/run-idempotently.js';
import type { Storage } from '@garage/composition';
import { batchedCalendarReads } from './batched-calendars.js';
import { cachedLookup } from './cached-lookup.js';

/**
 * How long a key lookup is trusted on one instance. Revoking or rotating a key must take effect everywhere within
 * 5 s (docs/reference/contract.md §6); 2 s leaves room for clock skew and a slow query.
 */
export const KEY_CACHE_TTL_MS = 2000;

/**
 * Memory for availability's computed days per instance (docs/operators/performance.md, "Availability"): a day with
 * every start of 8 opening hours free, in 30-minute slots, takes ~2.5 KB, so at least some 1,600 days (50 garages ×
 * a month), more as days fill up. Past it, the least recently used days are computed again when asked for.
 */
export const AVAILABILITY_CACHE_BYTES = 4 * 1024 * 1024;

export interface UseCaseOptions {
  /** Tests move time without waiting. */
  clock?: Clock;
  keyCacheTtlMs?: number;
  /** `WEBHOOK_ALLOWED_NETWORKS`: otherwise refused destinations that `POST /webhooks/test` may reach. */
  webhookAllowedNetworks?: readonly string[];
}

/** The use cases the routes call, over the adapters of `storage`. Later features add theirs here. */
const makeApiUseCases = (
  storage: Storage,
  reads: DatabaseHandle,
  { clock, keyCacheTtlMs, webhookAllowedNetworks, log, versions }: Required<UseCaseOptions> & { log: FastifyBaseLogger; versions: VersionRegistry },
) => {
  const { db } = storage.handle;
  // Keys are looked up on the primary: a revocation must hold everywhere within 5 s, whatever the replica's lag.
  const repos = makeRepositories(db);
  // Lists, items and availability may read a replica (DATABASE_READ_URL); writes and transactions use the primary.
  const replica = makeRepositories(reads.db);
  const rendered = makeRenderedLists(reads.db);
  // The request log reads the primary, where the recorder writes.
  const requestLog = makeRequestLog(db);
  const availability = batchedCalendarReads(replica.availability);
  const uow = makeUnitOfWork(db, {
    onStatisticsNotRefreshed: (err, tables) => log.warn({ err, tables }, 'planner statistics not refreshed after a bulk write; autovacuum will refresh them'),
  });
  // Day facts and date ranges, kept for the process: every booking, availability and appointment read uses them.
  const localTime = makeLocalTime();
  // One per encryption key, the active key's first (see `makeCursorCodec`).
  const cursors = makeCursorCodec(storage.encryptionKeys.map((key) => deriveSubkey([key], 'cursor')));
  const authenticate = makeAuthenticate({
    integrations: {
      findActiveByKeyHash: cachedLookup((hash) => repos.integrations.findActiveByKeyHash(hash), { ttlMs: keyCacheTtlMs, clock }),
      touchLastUsed: (id, at) => repos.integrations.touchLastUsed(id, at),
    },
    clock,
    onTouchError: (err) => log.warn({ err }, 'could not record the last use of an API key'),
  });
  return {
    authenticate,
    resolveFleetGarage: makeResolveFleetGarage({
      authenticate,
      // A slug always names the same garage; a garage created after a 404 is found within the same window as a key.
      garages: { findBySlug: cachedLookup((slug) => repos.garages.findBySlug(slug), { ttlMs: keyCacheTtlMs, clock }) },
    }),
    // Pages are sent as the rows' rendered items (docs/operators/performance.md, "List pages"), paged by the same use
    // cases a program built on the domain pages domain objects with.
    listProducts: makeListProducts({ products: rendered.products, cursors, positionOf: rendered.products.positionOf }),
    listStock: makeListStock({ stock: rendered.stock, cursors, positionOf: rendered.stock.positionOf }),
    listVehicles: makeListVehicles({ vehicles: rendered.vehicles, cursors, positionOf: rendered.vehicles.positionOf }),
    getVehicle: makeGetVehicle({ vehicles: replica.vehicles }),
    submitLead: makeSubmitLead({ uow }),
    getQuote: makeGetQuote({ quotes: replica.quotes, clock }),
    decideQuote: makeDecideQuote({ uow, clock }),
    // A booking's write is one statement (BookingWriter): called alone it runs on the pool, with no transaction.
    bookAppointment: makeBookAppointment({ repos, clock, localTime }),
    // Each day's starts are kept until its version, read with every request, moves: exact across instances.
    listAvailability: makeListAvailability({
      availability,
      days: cachedAvailableDays(makeAvailableDays({ availability, localTime }), { maxBytes: AVAILABILITY_CACHE_BYTES }),
      clock,
      localTime,
    }),
    listAppointments: makeListAppointments({ garages: replica.garages, appointments: replica.appointments, cursors, localTime }),
    getAppointment: makeGetAppointment({ garages: replica.garages, appointments: replica.appointments, localTime }),
    cancelAppointment: makeCancelAppointment({ uow, clock, localTime }),
    rescheduleAppointment: makeRescheduleAppointment({ uow, clock, localTime }),
    // Webhook self-service reads the primary: a connector checks the delivery it just retried.
    testWebhook: makeTestWebhook({
      integrations: repos.integrations,
      secrets: makeSecretBox(storage.encryptionKeys),
      sender: makeHttpSender({ allowedNetworks: webhookAllowedNetworks }),
      clock,
      renderBody: webhookBodyRenderer(versions),
    }),
    listIntegrationDeliveries: makeListIntegrationDeliveries({ feed: makeWebhookFeed(db), cursors }),
    listIntegrationEvents: makeListIntegrationEvents({ feed: makeWebhookFeed(db), cursors }),
    retryDelivery: makeRetryDelivery({ queue: makeDeliveryQueue(db), feed: makeWebhookFeed(db), clock }),
    listRequests: makeListRequests({ log: requestLog, cursors }),
    getRequest: makeGetRequest({ log: requestLog }),
    // The sandbox's test helpers: the use cases the admin CLI calls, scoped by the test key's garage.
    createQuote: makeCreateQuote({ uow, clock }),
    setAppointmentStatus: makeSetAppointmentStatus({ uow, clock, localTime }),
    resetSandbox: makeResetSandbox({ uow, secretBox: makeSecretBox(storage.encryptionKeys), clock }),
    // The transport's own rule around the use cases' work: it opens the transaction that also stores the response.
    runIdempotently: makeRunIdempotently({ store: makeIdempotencyStore(db), uow, clock }),
  };
};

export type ApiUseCases = ReturnType<typeof makeApiUseCases>;

declare module 'fastify' {
  interface FastifyInstance {
    useCases: ApiUseCases;
  }
}

/** Decorates the instance with the use cases the routes call, and the version probe of the list cache. */
export default fp(
  async (app: FastifyInstance, { clock = systemClock, keyCacheTtlMs = KEY_CACHE_TTL_MS, webhookAllowedNetworks = [] }: UseCaseOptions) => {
    app.decorate('useCases', makeApiUseCases(app.storage, app.reads, { clock, keyCacheTtlMs, webhookAllowedNetworks, log: app.log, versions: app.apiVersions }));
    // The version of a list comes from where its pages are read, so that a cached page matches what a read gives.
    app.decorate('listVersionProbe', makeListVersionProbe(app.reads.db));
  },
  { name: 'use-cases', dependencies: ['storage', 'api-versions'] },
);
