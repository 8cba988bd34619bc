import { testClock, type TestClock } from '@garage/domain/testing';
import type { Test } from 'tap';
import type { App } from '../src/index.js';
import { build, type Built } from './helper.js';

export { bookingBody, createBookingGarage, customer, type BookingGarage } from '@garage/composition/testing';

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
  { now = MONDAY_9AM, retentionIntervalMs }: { now?: string; retentionIntervalMs?: number } = {},
): Promise<BookingApp> => {
  const clock = testClock(now);
  const built = await build(t, { clock, retentionIntervalMs, env: { DELIVER_WEBHOOKS: 'false' } });
  return { ...built, clock };
};

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
