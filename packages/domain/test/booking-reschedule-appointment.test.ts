import t from 'tap';
import { bookingWorld, outcome } from '../src/testing/index.js';

// The world's clock: Monday 2026-11-30 09:00 in Paris (UTC+1). Hours: mon-fri 08:00-12:00,14:00-18:00; sat 09:00-12:00.
// Defaults: 30-minute slots, 120 minutes notice, 60 days horizon.
const TUESDAY = '2026-12-01';
const at = (date: string, hhmm: string) => `${date}T${hhmm}:00+01:00`;

t.test('a reschedule follows every booking rule, its own current place excepted; any error keeps the old time', async (t) => {
  const w = bookingWorld({ booking: { capacity: 1 } });
  const { id } = await w.book({ startsAt: at(TUESDAY, '09:00'), durationMinutes: 60 });
  const blocker = await w.book({ startsAt: at(TUESDAY, '11:00') });

  t.match(await w.reschedule(id, at(TUESDAY, '09:30')), {
    id,
    startsAt: at(TUESDAY, '09:30'),
    endsAt: at(TUESDAY, '10:30'),
    durationMinutes: 60,
    status: 'booked',
  }, 'its own current place does not count against it');

  const refused: [string | undefined, number | undefined, string, string][] = [
    [at(TUESDAY, '10:30'), undefined, 'SLOT_FULL', '11:00 is taken by another appointment'],
    [at('2026-12-06', '10:00'), undefined, 'DATES_UNAVAILABLE', 'a Sunday'],
    [at(TUESDAY, '09:10'), undefined, 'VALIDATION_FAILED', 'off the grid'],
    [at(TUESDAY, '14:00'), 45, 'VALIDATION_FAILED', 'not a multiple of the slot'],
    ['2026-11-29T09:00:00+01:00', undefined, 'VALIDATION_FAILED', 'in the past'],
    [undefined, 30, 'VALIDATION_FAILED', 'no startsAt'],
  ];
  for (const [startsAt, durationMinutes, code, why] of refused) {
    t.equal(await outcome(w.reschedule(id, startsAt as string, durationMinutes)), code, why);
  }
  t.match(w.store.committed().find((a) => a.id === id), { startsAt: new Date('2026-12-01T08:30:00Z') }, 'still at its last good time');
  t.same(
    w.store.events().filter((e) => (e.data as { id: string }).id === id).map((e) => e.type),
    ['appointment.created', 'appointment.rescheduled'],
    'failed changes wrote no event',
  );

  t.match(await w.reschedule(id, at('2026-12-02', '14:00'), 30), { startsAt: at('2026-12-02', '14:00'), durationMinutes: 30 }, 'to another day, with another duration');
  t.ok((await w.list(TUESDAY)).some((s) => s.startsAt === at(TUESDAY, '09:30')), 'the old place is free');

  await w.cancel(blocker.id);
  t.equal(await outcome(w.reschedule(blocker.id, at(TUESDAY, '12:00'))), 'APPOINTMENT_NOT_CHANGEABLE');
});

t.test('a reschedule across a DST change keeps durations and states the new offset', async (t) => {
  const w = bookingWorld({ now: '2027-03-24T08:00:00Z', hours: 'mon-sun 00:00-23:30' });
  const { id } = await w.book({ startsAt: '2027-03-27T01:00:00+01:00', durationMinutes: 60 });
  t.match(
    await w.reschedule(id, '2027-03-28T01:30:00+01:00'),
    { startsAt: '2027-03-28T01:30:00+01:00', endsAt: '2027-03-28T03:30:00+02:00', durationMinutes: 60 },
    'one real hour across the jump',
  );
});
