import type { Selectable } from 'kysely';
import type { Closure, Garage, GarageRepository, WeeklyHours } from '@garage/domain';
import { InvalidReferenceError, isUuid } from '@garage/domain';
import { fixedQuery } from '../fixed-query.js';
import type { GarageClosuresTable, GarageRow, Executor } from '../schema.js';

const toGarage = (row: GarageRow): Garage => ({
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

type ClosureRow = Omit<Selectable<GarageClosuresTable>, 'created_at'>;

const toClosure = (row: ClosureRow): Closure => ({
  id: row.id,
  garageId: row.garage_id,
  from: row.from_date,
  to: row.to_date,
  reason: row.reason,
});

/**
 * The closures of a garage (`garage`, an SQL expression) overlapping the inclusive local-date range from `from` to
 * `to` (placeholders), in their order. Fixed texts: booking reads them on every request, and the query builder, even
 * its `sql` tag, spent more building and compiling the statement than Postgres running it (issue 18).
 */
const closuresText = (garage: string, from: string, to: string) => `
  select c.id, c.garage_id, c.from_date, c.to_date, c.reason
    from garage_closures c
   where c.garage_id = ${garage} and c.from_date <= ${to} and c.to_date >= ${from}
   order by c.from_date, c.id`;

/** $1 the garage, $2 and $3 the first and last dates. */
const LIST_CLOSURES = fixedQuery<ClosureRow>(closuresText('$1', '$2', '$3'));
/** The garage $1 with its closures from $2 to $3, in one round trip. */
const GARAGE_WITH_CLOSURES = fixedQuery<GarageRow & { closures: ClosureRow[] }>(`
  select g.*, (select coalesce(json_agg(closure), '[]') from (${closuresText('g.id', '$2', '$3')}) as closure) as closures
    from garages g
   where g.id = $1`);

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
    const { rows } = await db.executeQuery(GARAGE_WITH_CLOSURES([id, from, to]));
    const row = rows[0];
    // json_agg writes a `date` as YYYY-MM-DD, the string the `date` parser gives (db.ts).
    return row ? { garage: toGarage(row), closures: row.closures.map(toClosure) } : null;
  },

  async listClosures(garageId, from, to) {
    if (!isUuid(garageId)) return [];
    const { rows } = await db.executeQuery(LIST_CLOSURES([garageId, from, to]));
    return rows.map(toClosure);
  },
});
