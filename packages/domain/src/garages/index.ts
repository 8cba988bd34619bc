/** Garages, their opening hours and booking settings, and how a public caller names one (fleet `garageSlug`). */
export {
  DEFAULT_BOOKING,
  WEEKDAYS,
  type BookingSettings,
  type Closure,
  type Garage,
  type OpeningInterval,
  type Weekday,
  type WeeklyHours,
} from './garage.js';
export { DEFAULT_OPENING_HOURS, parseWeeklyHours } from './opening-hours.js';
export { isSlug, SLUG, SLUG_MAX_LENGTH } from '../shared/validation.js';
export type { GarageRepository, NewGarage } from './garage-repository.port.js';
export { makeCreateGarage, type CreateGarageCommand } from './create-garage.js';
export { makeCloseGarage } from './close-garage.js';
export { makeResolveFleetGarage } from '../fleet/resolve-fleet-garage.js';
