import type { AvailabilityReader, CalendarQuery, GarageCalendar } from '@garage/domain';
import DataLoader from 'dataloader';

/** Queries per read; more at once go in several reads. */
const MAX_BATCH = 200;

const keyOf = (query: CalendarQuery) => `${query.garageId}|${query.dates?.from ?? ''}|${query.dates?.to ?? ''}`;

/**
 * The reader with `findCalendars` shared by the availability requests that arrive together: while one read is in
 * flight, the queries made meanwhile wait and go together in the next read, one round trip for all of them (the same
 * garage and dates asked for twice are read once). Exact all the same: a read is sent after every query it answers
 * was made, so it sees every change committed before any of those requests arrived. On an idle instance a query
 * goes out at once, alone. A round trip to Postgres costs the API more CPU than the rest of a kept availability answer
 * (docs/operators/performance.md, "Availability").
 */
export const batchedCalendarReads = (reader: AvailabilityReader): AvailabilityReader => {
  let inFlight: Promise<unknown> = Promise.resolve();
  const loader = new DataLoader<CalendarQuery, GarageCalendar | null, string>(
    (queries) => {
      const distinct = [...new Map(queries.map((query) => [keyOf(query), query])).values()];
      const batch = reader.findCalendars(distinct).then((calendars) => {
        const byKey = new Map(distinct.map((query, i) => [keyOf(query), calendars[i] ?? null]));
        return queries.map((query) => byKey.get(keyOf(query)) ?? null);
      });
      inFlight = batch.catch(() => undefined);
      return batch;
    },
    // No memory across batches (cache: false): a read answers only the queries made before it was sent.
    { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (dispatch) => void inFlight.then(dispatch) },
  );
  return {
    ...reader,
    findCalendars: async (queries) => {
      const calendars = await loader.loadMany(queries);
      const failed = calendars.find((calendar): calendar is Error => calendar instanceof Error);
      if (failed) throw failed;
      return calendars as (GarageCalendar | null)[];
    },
  };
};
