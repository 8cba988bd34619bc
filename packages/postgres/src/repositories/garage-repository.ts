import type { ExpressionBuilder, Selectable } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Closure, Garage, GarageRepository, WeeklyHours } from '@garage/domain';
import { InvalidReferenceError, isUuid } from '@garage/domain';
import type { GarageClosuresTable, GarageRow, Executor } from '../schema.js';

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
    // In one round trip: booking reads the garage and its closures together.
    const row = await db
      .selectFrom('garages as g')
      .selectAll('g')
      .select((eb) =>
        jsonArrayFrom(
          eb
            .selectFrom('garage_closures as c')
            .select(CLOSURE_COLUMNS)
            .whereRef('c.garage_id', '=', 'g.id')
            .where(overlapping(from, to))
            .orderBy('c.from_date')
            .orderBy('c.id'),
        ).as('closures'),
      )
      .where('g.id', '=', id)
      .executeTakeFirst();
    // json_agg writes a `date` as YYYY-MM-DD, the string the `date` parser gives (column-types.ts).
    return row ? { garage: toGarage(row), closures: row.closures.map(toClosure) } : null;
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
