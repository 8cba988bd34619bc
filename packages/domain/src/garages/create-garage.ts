import { IANAZone } from 'luxon';
import { DEFAULT_BOOKING, type Garage } from './garage.js';
import type { GarageRepository } from './garage-repository.port.js';
import { DEFAULT_OPENING_HOURS, parseWeeklyHours } from './opening-hours.js';
import { Checker, CURRENCY, SLUG, SLUG_MAX_LENGTH } from '../kernel/validation.js';

export interface CreateGarageCommand {
  slug: string;
  name: string;
  timezone?: string;
  currency?: string;
  slotMinutes?: number;
  capacity?: number;
  /** e.g. `"mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00"`; omitted: Monday–Friday 08:00–18:00. */
  hours?: string;
  minNoticeMinutes?: number;
  horizonDays?: number;
}

export const makeCreateGarage =
  ({ garages }: { garages: Pick<GarageRepository, 'create'> }) =>
  async (cmd: CreateGarageCommand): Promise<Garage> => {
    const booking = { ...DEFAULT_BOOKING };
    const check = new Checker();
    check.string('/slug', cmd.slug, { max: SLUG_MAX_LENGTH });
    if (typeof cmd.slug === 'string' && !SLUG.test(cmd.slug)) check.fail('/slug', 'must be lowercase letters, digits and dashes');
    check.string('/name', cmd.name, { max: 120 });
    const timezone = cmd.timezone ?? booking.timezone;
    if (!IANAZone.isValidZone(timezone)) check.fail('/timezone', 'must be an IANA time zone such as Europe/Paris');
    const currency = cmd.currency ?? 'EUR';
    if (!CURRENCY.test(currency)) check.fail('/currency', 'must be an ISO 4217 code such as EUR');
    const slotMinutes = cmd.slotMinutes ?? booking.slotMinutes;
    check.integer('/slotMinutes', slotMinutes, { min: 5, max: 480 });
    if (1440 % slotMinutes !== 0) check.fail('/slotMinutes', 'must divide a day evenly (5, 10, 15, 20, 30, 60, …)');
    check.integer('/capacity', cmd.capacity ?? booking.capacity, { min: 1, max: 1000 });
    check.integer('/minNoticeMinutes', cmd.minNoticeMinutes ?? booking.minNoticeMinutes, { max: 525_600 });
    check.integer('/horizonDays', cmd.horizonDays ?? booking.horizonDays, { min: 1, max: 3660 });
    check.throwIfAny('Invalid garage');
    return garages.create({
      slug: cmd.slug,
      name: cmd.name,
      currency,
      booking: {
        timezone,
        slotMinutes,
        capacity: cmd.capacity ?? booking.capacity,
        weeklyHours: parseWeeklyHours(cmd.hours ?? DEFAULT_OPENING_HOURS),
        minNoticeMinutes: cmd.minNoticeMinutes ?? booking.minNoticeMinutes,
        horizonDays: cmd.horizonDays ?? booking.horizonDays,
      },
    });
  };
