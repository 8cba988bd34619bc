import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Clock, ProductImportRow, SyncToggle, VehicleImportRow } from '@garage/domain';
import { createTestDatabase, type TestDatabase } from '@garage/postgres/testing';
import type { Test } from 'tap';
import { buildApp, loadConfig, type App, type AppOverrides } from '../src/index.js';
import { adminFor } from './admin.js';
import { makeVersionedConformanceCheck } from './openapi-conformance.js';
import type { AdminUseCases } from '@garage/composition';

export const ENCRYPTION_KEY = randomBytes(32).toString('base64');

/** Every log line the app wrote, parsed. */
export class LogCapture extends Writable {
  readonly raw: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.raw.push(chunk.toString('utf8'));
    done();
  }
  get text() {
    return this.raw.join('');
  }
  get lines(): Record<string, unknown>[] {
    return this.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }
}

export interface BuildOptions {
  logs?: LogCapture;
  clock?: Clock;
  keyCacheTtlMs?: number;
  idempotencyPurgeIntervalMs?: number;
  /** The list cache's shared version window; 0 by default here, so that a write is seen by the very next read. */
  listVersionShareMs?: number;
  /** Readiness probes are shared for a second in production; tests that cut a dependency see it at once (0, the default here). */
  readinessShareMs?: number;
  /** Point the app at another server (e.g. a proxy in front of Postgres) for the same database. */
  databaseUrl?: (url: string) => string;
  env?: Record<string, string>;
  /** Another set of API versions (a deprecated one, say). */
  apiVersions?: AppOverrides['apiVersions'];
}

export interface Built {
  app: App;
  admin: AdminUseCases;
  db: TestDatabase;
}

/**
 * A fresh database and an app on it, closed and dropped when the test ends. The app is not ready yet, so a test
 * may still add routes of its own; `inject` readies it. Fails (never skips) without TEST_DATABASE_URL.
 */
let conformance: ReturnType<typeof makeVersionedConformanceCheck> | null = null;

/**
 * Every response of `app.inject(options)` is checked against the committed OpenAPI document (docs/reference/contract.md §7): a
 * response the document does not describe rejects the call, so the test that received it fails. The chained and
 * callback forms of inject are left as they are.
 */
export const checkResponsesAgainstDocument = (app: App): void => {
  conformance ??= makeVersionedConformanceCheck();
  const check = conformance;
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  Object.assign(app, {
    inject: (...args: unknown[]) => {
      if (args.length !== 1) return inject(...args);
      return (inject(args[0]) as Promise<Awaited<ReturnType<App['inject']>>>).then((response) => {
        const request = response.raw.req;
        check({ method: request.method ?? 'GET', url: request.url ?? '/', statusCode: response.statusCode, headers: response.headers, body: response.body });
        return response;
      });
    },
  });
};

/** `WEBHOOK_ALLOWED_NETWORKS` for tests whose webhook receivers listen on loopback, which is refused by default. */
export const LOOPBACK_NETWORKS = '127.0.0.0/8,::1/128';
export const LOOPBACK_WEBHOOKS = { WEBHOOK_ALLOWED_NETWORKS: LOOPBACK_NETWORKS };

export const build = async (t: Test, options: BuildOptions = {}): Promise<Built> => {
  const db = await createTestDatabase('api');
  const config = loadConfig({
    DATABASE_URL: options.databaseUrl ? options.databaseUrl(db.url) : db.url,
    ENCRYPTION_KEY,
    LOG_LEVEL: options.logs ? 'info' : 'silent',
    ...options.env,
  });
  const app = await buildApp(config, {
    logStream: options.logs,
    clock: options.clock,
    keyCacheTtlMs: options.keyCacheTtlMs,
    idempotencyPurgeIntervalMs: options.idempotencyPurgeIntervalMs,
    listVersionShareMs: options.listVersionShareMs ?? 0,
    readinessShareMs: options.readinessShareMs ?? 0,
    apiVersions: options.apiVersions,
  });
  t.teardown(async () => {
    await app.close();
    await db.drop();
  });
  checkResponsesAgainstDocument(app);
  return { app, admin: adminFor(db.handle.db), db };
};

export const product = (sku: string, extra: Partial<ProductImportRow> = {}): ProductImportRow => ({
  sku,
  name: `Product ${sku}`,
  priceCents: 1000,
  vatRate: 20,
  unit: 'piece',
  ...extra,
});

export const vehicle = (reference: string, extra: Partial<VehicleImportRow> = {}): VehicleImportRow => ({
  reference,
  make: 'Peugeot',
  model: '208',
  year: 2021,
  mileageKm: 30000,
  fuel: 'petrol',
  gearbox: 'manual',
  priceCents: 1500000,
  ...extra,
});

export interface SeededGarage {
  slug: string;
  /** Keys by what the integration may do. */
  keys: { all: string; catalog: string; stock: string; none: string };
  integrationIds: { all: string; catalog: string; stock: string; none: string };
  productIds: Record<string, string>;
  vehicleIds: Record<string, string>;
}

/**
 * A garage with one integration per toggle combination that matters here, a small catalog with stock, and a fleet
 * with one vehicle of each status.
 */
export const seedGarage = async (admin: AdminUseCases, slug = 'acme'): Promise<SeededGarage> => {
  await admin.createGarage({ slug, name: `Garage ${slug}` });
  const integration = async (name: string, sync: SyncToggle[]) => {
    // Pinned to the first version: the tests written against it assert its shapes (docs/reference/contract.md §8).
    const created = await admin.createIntegration({ garageSlug: slug, name, sync, webhookUrl: null, apiVersion: FIRST_VERSION });
    return { key: created.apiKey, id: created.integration.id };
  };
  const all = await integration('all', ['appointments', 'catalog', 'stock']);
  const catalog = await integration('catalog only', ['catalog']);
  const stock = await integration('stock only', ['stock']);
  const none = await integration('no toggle', []);
  const products = await admin.importProducts(slug, [product('A-1'), product('B-2', { description: 'Second' }), product('C-3')]);
  await admin.importStock(slug, [
    { sku: 'A-1', quantity: 5 },
    { sku: 'B-2', quantity: 0 },
    { sku: 'C-3', quantity: 12 },
  ]);
  const vehicles = await admin.importVehicles(slug, [
    vehicle('V-1', { make: 'Peugeot', fuel: 'petrol', photos: ['https://img.example/v1.jpg'] }),
    vehicle('V-2', { make: 'Renault', fuel: 'diesel', status: 'reserved' }),
    vehicle('V-3', { make: 'Tesla', fuel: 'electric' }),
    vehicle('V-SOLD', { make: 'Peugeot', status: 'sold' }),
  ]);
  return {
    slug,
    keys: { all: all.key, catalog: catalog.key, stock: stock.key, none: none.key },
    integrationIds: { all: all.id, catalog: catalog.id, stock: stock.id, none: none.id },
    productIds: products.ids,
    vehicleIds: vehicles.ids,
  };
};

/** The first API version, whose shapes most tests assert; `LATEST_VERSION` is the newest. */
export const FIRST_VERSION = '2026-11-21';
export const LATEST_VERSION = '2026-11-26';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** RFC 3339 with an offset (Z or ±hh:mm). */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
