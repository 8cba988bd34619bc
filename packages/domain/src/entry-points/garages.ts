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
} from '../entities/garage.js';
export { DEFAULT_OPENING_HOURS, parseWeeklyHours } from '../services/opening-hours.js';
export { isSlug, SLUG, SLUG_MAX_LENGTH } from '../services/validate.js';
export type { GarageRepository, NewGarage } from '../ports/garage-repository.port.js';
export { makeCreateGarage, type CreateGarageCommand } from '../use-cases/create-garage.js';
export { makeCloseGarage } from '../use-cases/close-garage.js';
export { makeResolveFleetGarage, type FleetAccess } from '../use-cases/resolve-fleet-garage.js';
