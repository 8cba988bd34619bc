import type { AvailabilityReader, CalendarQuery, GarageCalendar } from '@garage/domain';
import t from 'tap';
import { batchedCalendarReads } from '../src/composition/batched-calendars.js';

/**
 * A reader whose reads are held until the test releases them. Each read answers every query with the number of the
 * read (as the garage's name), so that a test sees which read answered which call.
 */
const heldReader = () => {
  const reads: { queries: readonly CalendarQuery[]; release: () => void; fail: (err: Error) => void }[] = [];
  const reader: AvailabilityReader = {
    findCalendars: (queries) =>
      new Promise((resolve, reject) => {
        const number = reads.length + 1;
        const answer = queries.map((q) => ({ garage: { id: q.garageId, name: `read ${number}` }, closures: [], versions: new Map() }) as unknown as GarageCalendar);
        reads.push({ queries, release: () => resolve(answer), fail: reject });
      }),
    readPlaces: () => Promise.reject(new Error('not used')),
  };
  return { reader, reads };
};

const q = (garageId: string, from = '2026-12-01'): CalendarQuery => ({ garageId, dates: { from, to: from } });
const tick = () => new Promise((resolve) => setImmediate(resolve));
const names = (calendars: (GarageCalendar | null)[]) => calendars.map((c) => c?.garage.name);

t.test('calls made while a read is in flight wait and share the next read; the same query is read once', async (t) => {
  const { reader, reads } = heldReader();
  const batched = batchedCalendarReads(reader);
  const first = batched.findCalendars([q('g1')]);
  await tick();
  t.equal(reads.length, 1, 'on an idle reader, a call is read at once');
  const second = batched.findCalendars([q('g1')]);
  const third = batched.findCalendars([q('g2'), q('g1', '2026-12-02')]);
  const fourth = batched.findCalendars([q('g1')]);
  await tick();
  t.equal(reads.length, 1, 'they wait for the read in flight');
  reads[0]?.release();
  t.same(names(await first), ['read 1']);
  await tick();
  t.equal(reads.length, 2);
  t.same(reads[1]?.queries, [q('g1'), q('g2'), q('g1', '2026-12-02')], 'one read for the three calls, g1 once');
  reads[1]?.release();
  t.same([names(await second), names(await third), names(await fourth)], [['read 2'], ['read 2', 'read 2'], ['read 2']], 'a call made during read 1 is answered by read 2, sent after it');
  t.same((await third).map((c) => c?.garage.id), ['g2', 'g1'], 'in the order asked');
});

t.test('a failed read fails the calls it answers, and the next calls read again', async (t) => {
  const { reader, reads } = heldReader();
  const batched = batchedCalendarReads(reader);
  const first = batched.findCalendars([q('g1')]);
  await tick();
  const second = batched.findCalendars([q('g1')]);
  reads[0]?.fail(new Error('database unreachable'));
  await t.rejects(first, { message: 'database unreachable' });
  await tick();
  reads[1]?.release();
  t.same(names(await second), ['read 2']);
});
