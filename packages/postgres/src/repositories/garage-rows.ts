import type { Selectable } from 'kysely';
import type { Closure, Garage, WeeklyHours } from '@garage/domain';
import type { GarageClosuresTable, GarageRow } from '../schema.js';

export const toGarage = (row: GarageRow): Garage => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  currency: row.currency,
  booking: {
    timezone: row.timezone,
    slotMinutes: row.slot_minutes,
    capacity: row.capacity,
    weeklyHours: row.weekly_hours as WeeklyHours,
    minNoticeMinutes: row.min_notice_minutes,
    horizonDays: row.horizon_days,
  },
  createdAt: row.created_at,
});

export type ClosureRow = Omit<Selectable<GarageClosuresTable>, 'created_at'>;

export const toClosure = (row: ClosureRow): Closure => ({
  id: row.id,
  garageId: row.garage_id,
  from: row.from_date,
  to: row.to_date,
  reason: row.reason,
});
