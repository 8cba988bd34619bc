import type { CreateGarageCommand } from '@garage/domain';
import { testClock, type TestClock } from '@garage/domain/testing';
import type { Test } from 'tap';
import type { App } from '../src/index.js';
import { build, FIRST_VERSION, product, type Built } from './helper.js';
import type { AdminUseCases } from '@garage/composition';

/** Monday 2026-11-30 09:00 in Paris (UTC+1): Tuesday 2026-12-01 is bookable, with 120 minutes notice. */
export const MONDAY_9AM = '2026-11-30T08:00:00Z';
export const TUESDAY = '2026-12-01';
export const at = (date: string, hhmm: string, offset = '+01:00') => `${date}T${hhmm}:00${offset}`;

export interface BookingApp extends Built {
  clock: TestClock;
}

/**
 * An app on a fresh database whose clock the test controls. Webhooks are not delivered by this process: the tests
 * look at the outbox rows, and no request leaves the machine.
 */
export const buildBookingApp = async (
  t: Test,
  { now = MONDAY_9AM, idempotencyPurgeIntervalMs }: { now?: string; idempotencyPurgeIntervalMs?: number } = {},
): Promise<BookingApp> => {
  const clock = testClock(now);
  const built = await build(t, { clock, idempotencyPurgeIntervalMs, env: { DELIVER_WEBHOOKS: 'false' } });
  return { ...built, clock };
};

export interface BookingGarage {
  id: string;
  slug: string;
  /** syncAppointments and a webhook URL. */
  shop: { id: string; key: string };
  /** syncAppointments, no webhook URL. */
  partner: { id: string; key: string };
  /** syncCatalog only, with a webhook URL: may not book, receives no appointment event. */
  catalog: { id: string; key: string };
  /** Product ids by sku: A-1, B-2. */
  products: Record<string, string>;
}

let garageCount = 0;

/** A garage created through the admin use-cases (the same ones as `garage create`), with its integrations. */
export const createBookingGarage = async (
  admin: AdminUseCases,
  settings: Omit<CreateGarageCommand, 'slug' | 'name'> = {},
): Promise<BookingGarage> => {
  garageCount += 1;
  const slug = `booking-${garageCount}`;
  const garage = await admin.createGarage({ slug, name: `Garage ${slug}`, ...settings });
  const integration = async (name: string, sync: ('appointments' | 'catalog')[], webhookUrl: string | null) => {
    const created = await admin.createIntegration({ garageSlug: slug, name, sync, webhookUrl, apiVersion: FIRST_VERSION });
    return { id: created.integration.id, key: created.apiKey };
  };
  const shop = await integration('shop', ['appointments'], 'http://127.0.0.1:9/hooks/shop');
  const partner = await integration('partner', ['appointments'], null);
  const catalog = await integration('catalog', ['catalog'], 'http://127.0.0.1:9/hooks/catalog');
  const { ids } = await admin.importProducts(slug, [product('A-1'), product('B-2')]);
  return { id: garage.id, slug, shop, partner, catalog, products: ids };
};

export const customer = { name: 'Jeanne Martin', email: 'jeanne@example.com' };

export const bookingBody = (startsAt: string, extra: Record<string, unknown> = {}) => ({ startsAt, customer, ...extra });

export const postAppointment = (
  app: App,
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url: '/api/public/appointments',
    headers: { 'x-api-key': key, ...headers },
    payload: body as Record<string, unknown>,
  });

export const getAvailability = (app: App, key: string, query: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/public/appointments/availability?${query}`, headers: { 'x-api-key': key, ...headers } });

/** The start times availability lists, as sent. */
export const starts = (body: { data: { startsAt: string }[] }) => body.data.map((s) => s.startsAt);
