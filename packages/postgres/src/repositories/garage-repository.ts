import type { ExpressionBuilder } from 'kysely';
import type { GarageRepository } from '@garage/domain';
import { InvalidReferenceError, isUuid } from '@garage/domain';
import type { GarageClosuresTable, Executor } from '../schema.js';
import { calendarStatement, toGarageCalendar } from './garage-calendar.js';
import { toClosure, toGarage } from './garage-rows.js';

/** The closures (aliased `c`) overlapping the inclusive local-date range `[from, to]`. */
const overlapping =
  (from: string, to: string) =>
  (eb: ExpressionBuilder<{ c: GarageClosuresTable }, 'c'>) =>
    eb.and([eb('c.from_date', '<=', to), eb('c.to_date', '>=', from)]);

const CLOSURE_COLUMNS = ['c.id', 'c.garage_id', 'c.from_date', 'c.to_date', 'c.reason'] as const;

export const makeGarageRepository = (db: Executor): GarageRepository => ({
  async create(input) {
    const row = await db
      .insertInto('garages')
      .values({
        slug: input.slug,
        name: input.name,
        currency: input.currency,
        timezone: input.booking.timezone,
        slot_minutes: input.booking.slotMinutes,
        capacity: input.booking.capacity,
        weekly_hours: JSON.stringify(input.booking.weeklyHours),
        min_notice_minutes: input.booking.minNoticeMinutes,
        horizon_days: input.booking.horizonDays,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toGarage(row);
  },

  async findBySlug(slug) {
    const row = await db.selectFrom('garages').selectAll().where('slug', '=', slug).executeTakeFirst();
    return row ? toGarage(row) : null;
  },

  async findById(id) {
    if (!isUuid(id)) return null;
    const row = await db.selectFrom('garages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toGarage(row) : null;
  },

  async addClosure({ garageId, from, to, reason }) {
    if (!isUuid(garageId)) throw new InvalidReferenceError('Unknown garage');
    const row = await db
      .insertInto('garage_closures')
      .values({ garage_id: garageId, from_date: from, to_date: to, reason })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toClosure(row);
  },

  async findWithClosures(id, from, to) {
    if (!isUuid(id)) return null;
    // In one round trip, through the function availability reads by (its plans are kept per connection).
    const [row] = (await calendarStatement(id, from, to).execute(db)).rows;
    if (!row) return null;
    const { read_at: readAt, ...columns } = row;
    const calendar = toGarageCalendar(columns);
    return calendar && { garage: calendar.garage, closures: calendar.closures, readAt };
  },

  async listClosures(garageId, from, to) {
    if (!isUuid(garageId)) return [];
    const rows = await db
      .selectFrom('garage_closures as c')
      .select(CLOSURE_COLUMNS)
      .where('c.garage_id', '=', garageId)
      .where(overlapping(from, to))
      .orderBy('c.from_date')
      .orderBy('c.id')
      .execute();
    return rows.map(toClosure);
  },
});
