import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  appointmentDaysChanged,
  appointmentDaysTriggers,
  bookIfRoom,
  bookingPlaces,
  bookingPlacesUnderLock,
  garageCalendar,
  lockBookingDay,
} from './booking-days.js';
import { enqueueWebhookEvent } from './webhook-outbox.js';

/**
 * Where the database repeats a rule the domain defines, for speed (docs/contributors/sql-rules.md): functions and
 * triggers written from the domain's constants, in the order they must be created. Each statement replaces what it
 * defines, so applying them again is safe.
 */
export const SQL_RULES: readonly string[] = [
  lockBookingDay,
  bookingPlaces,
  bookingPlacesUnderLock,
  garageCalendar,
  appointmentDaysChanged,
  ...appointmentDaysTriggers,
  enqueueWebhookEvent,
  bookIfRoom,
];

/** Names what `SQL_RULES` writes today; a migration that applies them records it (`sqlRulesDigest`). */
export const sqlRulesDigest = (): string => createHash('sha256').update(SQL_RULES.join('\n;\n')).digest('hex').slice(0, 16);

export const applySqlRules = async (db: Kysely<unknown>): Promise<void> => {
  for (const statement of SQL_RULES) await sql.raw(statement).execute(db);
};
