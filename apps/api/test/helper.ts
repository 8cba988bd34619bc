import { Writable } from 'node:stream';
import type { Clock } from '@garage/domain';
import { createTestDatabase, type TestDatabase } from '@garage/postgres/testing';
import type { Test } from 'tap';
import { buildApp, loadConfig, type App, type AppOverrides } from '../src/index.js';
import { makeVersionedConformanceCheck } from './openapi-conformance.js';
import type { AdminUseCases } from '@garage/composition';
import { adminFor, ENCRYPTION_KEY, LOOPBACK_NETWORKS } from '@garage/composition/testing';

export {
  adminFor,
  ENCRYPTION_KEY,
  FIRST_VERSION,
  LOOPBACK_NETWORKS,
  product,
  seedGarage,
  vehicle,
  type SeededGarage,
} from '@garage/composition/testing';


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
  retentionIntervalMs?: number;
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
    retentionIntervalMs: options.retentionIntervalMs,
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

/** The newest API version; `FIRST_VERSION`, which the seeded integrations are pinned to, is the oldest. */
export const LATEST_VERSION = '2026-11-26';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A UUIDv7: version 7 in the version nibble, RFC 9562's variant (10xx) in the next group. */
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** RFC 3339 with an offset (Z or ±hh:mm). */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
