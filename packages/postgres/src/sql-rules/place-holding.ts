import { APPOINTMENT_STATUSES, PLACE_HOLDING_STATUSES, type AppointmentStatus } from '@garage/domain';
import { notIn } from './sql-text.js';

/** The statuses whose appointments hold no place: the complement of the domain's `PLACE_HOLDING_STATUSES`. */
export const PLACELESS_STATUSES: readonly AppointmentStatus[] = APPOINTMENT_STATUSES.filter(
  (status) => !(PLACE_HOLDING_STATUSES as readonly AppointmentStatus[]).includes(status),
);

/**
 * "This appointment holds a place" in SQL, over `column` (the status). Written as the statuses that hold none, so that
 * the predicate of the partial index `appointments_place_idx` (`status <> 'cancelled'`) is the same expression and
 * the planner reads occupancy from it.
 */
export const holdsPlaceSql = (column: string): string => notIn(column, PLACELESS_STATUSES);
