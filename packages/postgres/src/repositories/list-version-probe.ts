import type { ListName, ListVersionProbe } from '@garage/domain';
import { sql } from 'kysely';
import { withErrorMapping } from '../errors.js';
import { isUuid } from '@garage/domain';
import type { Executor } from '../schema.js';

const TABLE = { products: 'products', stock: 'stock', vehicles: 'vehicles' } as const satisfies Record<ListName, string>;

/**
 * A list's version for a garage is the newest `updated_at` of the table behind it, in microseconds. Every write the
 * lists can show moves it forward: catalog writes take a time later than every row already committed (see
 * clocks.ts), a deactivated product or a sold vehicle is an update, and a new product gets its stock row in
 * the same write. One correlated `max` per garage, so that each is one descent of the `(garage_id, updated_at …)`
 * index however many rows the garage has; all garages asked for at once share the round trip.
 */
export const makeListVersionProbe = (db: Executor): ListVersionProbe =>
  withErrorMapping({
    async versions(list: ListName, garageIds: readonly string[]) {
      const versions = new Map<string, string>();
      const ids = [...new Set(garageIds)].filter(isUuid);
      // A malformed id names no garage: nothing can change it.
      for (const id of garageIds) if (!isUuid(id)) versions.set(id, 'none');
      if (ids.length === 0) return versions;
      const table = sql.table(TABLE[list]);
      const garages = sql.join(ids.map((id, i) => sql`(${id}::uuid, ${i}::int)`));
      const { rows } = await sql<{ ordinal: number; version: string | null }>`
        select g.ordinal,
               (select (extract(epoch from max(t.updated_at)) * 1000000)::bigint::text
                  from ${table} as t where t.garage_id = g.id) as version
          from (values ${garages}) as g(id, ordinal)`.execute(db);
      for (const { ordinal, version } of rows) versions.set(ids[ordinal] as string, version ?? 'none');
      return versions;
    },
  });
