import fc from 'fast-check';
import t from 'tap';
import { remainingCapacity, slotOccupancy, type BookedInterval } from '../src/booking/occupancy.js';

/** The definition, written the obvious way: every appointment overlapping the slot, counted one by one. */
const naiveOccupancy = (slotMinutes: number, booked: readonly BookedInterval[]) => (slot: Date) =>
  booked.filter((b) => b.startsAt.getTime() < slot.getTime() + slotMinutes * 60_000 && b.endsAt.getTime() > slot.getTime()).length;

const BASE = Date.UTC(2026, 11, 1);
const DAY_MS = 86_400_000;

/** Appointments over a few days: on the grid or anywhere (older slot sizes), 1 minute to 8 hours long. */
const appointment = fc
  .record({
    start: fc.oneof(fc.integer({ min: 0, max: 3 * 288 }).map((k) => k * 5 * 60_000), fc.integer({ min: 0, max: 3 * DAY_MS })),
    minutes: fc.integer({ min: 1, max: 480 }),
  })
  .map(({ start, minutes }): BookedInterval => ({ startsAt: new Date(BASE + start), endsAt: new Date(BASE + start + minutes * 60_000) }));

const slot = fc.oneof(
  fc.integer({ min: -100, max: 4 * 288 }).map((k) => new Date(BASE + k * 5 * 60_000)),
  fc.integer({ min: -DAY_MS, max: 4 * DAY_MS }).map((ms) => new Date(BASE + ms)),
);

const seed = process.env.FUZZ_SEED === undefined ? 20261201 : Number(process.env.FUZZ_SEED);
const numRuns = process.env.FUZZ_RUNS === undefined ? 300 : Number(process.env.FUZZ_RUNS);

t.test('occupancy by binary search equals the count of overlapping appointments, slot by slot', async (t) => {
  fc.assert(
    fc.property(
      fc.constantFrom(5, 10, 15, 20, 30, 60),
      fc.array(appointment, { maxLength: 200 }),
      fc.array(slot, { minLength: 1, maxLength: 100 }),
      (slotMinutes, booked, slots) => {
        const fast = slotOccupancy(slotMinutes, booked);
        const simple = naiveOccupancy(slotMinutes, booked);
        for (const s of [...slots, ...slots]) if (fast(s) !== simple(s)) return false;
        return true;
      },
    ),
    { seed, numRuns },
  );
  t.pass(`${numRuns} random cases agree`);
});

t.test('remaining capacity over a candidate is the same with either occupancy', async (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5 }),
      fc.array(appointment, { maxLength: 100 }),
      slot,
      fc.integer({ min: 1, max: 16 }),
      (capacity, booked, first, count) => {
        const slots = Array.from({ length: count }, (_, i) => new Date(first.getTime() + i * 30 * 60_000));
        return (
          remainingCapacity(capacity, slots, slotOccupancy(30, booked)) === remainingCapacity(capacity, slots, naiveOccupancy(30, booked))
        );
      },
    ),
    { seed, numRuns },
  );
  t.pass(`${numRuns} random cases agree`);
});

t.test('edges: touching appointments do not overlap a slot; an appointment covering it does', async (t) => {
  const at = (minutes: number) => new Date(BASE + minutes * 60_000);
  const booked = [
    { startsAt: at(0), endsAt: at(30) }, // ends where the slot starts
    { startsAt: at(60), endsAt: at(90) }, // starts where the slot ends
    { startsAt: at(-60), endsAt: at(120) }, // covers it
    { startsAt: at(45), endsAt: at(46) }, // inside it
  ];
  t.equal(slotOccupancy(30, booked)(at(30)), 2);
  t.equal(slotOccupancy(30, [])(at(30)), 0);
});

t.test('each appointment is read a bounded number of times, however many slots are asked about', async (t) => {
  // A busy month: 4,000 appointments, every 5-minute slot of 31 days asked about. Scanning every appointment for
  // every slot (8,928 × 4,000 reads) blocked the event loop for most of a second.
  let reads = 0;
  const counted = (startsAt: Date, endsAt: Date): BookedInterval => ({
    get startsAt() {
      reads += 1;
      return startsAt;
    },
    get endsAt() {
      reads += 1;
      return endsAt;
    },
  });
  const booked = Array.from({ length: 4_000 }, (_, i) => {
    const start = BASE + ((i * 7_919) % (31 * 288 - 12)) * 5 * 60_000;
    return counted(new Date(start), new Date(start + 60 * 60_000));
  });
  const occupancy = slotOccupancy(5, booked);
  let total = 0;
  for (let k = 0; k < 31 * 288; k += 1) total += occupancy(new Date(BASE + k * 5 * 60_000));
  t.equal(total, 4_000 * 12, 'every appointment counted in each of its twelve 5-minute slots');
  t.ok(reads <= 2 * booked.length, `${reads} reads of appointment times for ${booked.length} appointments`);
});
