import { randomUUID } from 'node:crypto';
import { DEFAULT_BOOKING, DEFAULT_OPENING_HOURS, parseWeeklyHours, type Garage, type Repositories } from '../../index.js';

/** A garage of its own (unique slug) with the demo opening hours, so that tests sharing a database never meet. */
export const newGarage = (repos: Pick<Repositories, 'garages'>, currency = 'EUR'): Promise<Garage> =>
  repos.garages.create({
    slug: `g-${randomUUID()}`,
    name: 'Garage under test',
    currency,
    booking: { ...DEFAULT_BOOKING, weeklyHours: parseWeeklyHours(DEFAULT_OPENING_HOURS) },
  });
