// What each statement of the six-statement booking costs the client and Postgres (a booking is two statements since
// 2026-11-28; this prices the steps that the one-statement write `book_if_room` replaced): that unit of work run
// through the adapter's own repositories (Kysely, pg, the pool wrapper), without HTTP, on a garage of capacity 8 with a
// busy month, once whole and once without each of its steps, the variants alternated in rounds. A step's cost is the
// whole's minus the variant without it (docs/operators/performance.md, "Bookings").
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node scripts/bench/booking-statements.js [--connections=32] [--rounds=3] [--seconds=3]
//
// Needs the packages built (`pnpm -s turbo run build`). The database is created for the run and dropped after it.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { appointmentEvent, makeLocalTime, parseEncryptionKey } from '../../packages/domain/dist/index.js';
import { makeAdminUseCases } from '../../packages/composition/dist/index.js';
import { makeUnitOfWork } from '../../packages/postgres/dist/index.js';
import { createTestDatabase } from '../../packages/postgres/dist/testing/databases.js';
import { postgresCpuDelta, postgresCpuMs } from './cpu.js';
import { BUSY_APPOINTMENTS_SQL } from './seed.js';

const { values: options } = parseArgs({
  options: { connections: { type: 'string', default: '32' }, rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '3' } },
});
const CONNECTIONS = Number(options.connections);
const ROUNDS = Number(options.rounds);
const SLICE_MS = Number(options.seconds) * 1000;
const STEPS = ['calendar', 'lock', 'insert', 'event'];
const BENCH_CUSTOMER = 'Statement bench';

const database = await createTestDatabase('booking_statements');
try {
  const { db, pool } = database.handle;
  const databaseName = new URL(database.url).pathname.slice(1);
  const admin = makeAdminUseCases(db, [parseEncryptionKey(randomBytes(32).toString('base64'), 'ENCRYPTION_KEY')]);
  const garage = await admin.createGarage({ slug: 'statements', name: 'Statements', capacity: 8, hours: 'mon-sun 00:00-23:59', minNoticeMinutes: 0 });
  const { integration } = await admin.createIntegration({ garageSlug: 'statements', name: 'bench', sync: ['appointments'], webhookUrl: null });
  await pool.query(BUSY_APPOINTMENTS_SQL, [garage.id, integration.id]);
  await pool.query('vacuum analyze appointments');
  const uow = makeUnitOfWork(db);
  const localTime = makeLocalTime();

  // Starts on every half hour of the busy month, a day apart from one booking to the next as the newcomer's scenario
  // books, so that concurrent bookings rarely wait for one day's lock.
  const DAYS = 31;
  const SLOTS = 48;
  const first = Date.parse(`${new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`);
  const startOf = (n) => new Date(first + (n % DAYS) * 86_400_000 + (Math.floor(n / DAYS) % SLOTS) * 1_800_000);

  const book = (without) => async (n) => {
    const start = startOf(n);
    const end = new Date(start.getTime() + 1_800_000);
    const localDate = start.toISOString().slice(0, 10);
    await uow.run(async (tx) => {
      if (!without.has('calendar')) await tx.garages.findWithClosures(garage.id, localDate, localDate);
      if (!without.has('lock')) await tx.bookingLocks.acquireAndListOverlapping({ garageId: garage.id, localDate }, start, end);
      if (without.has('insert')) return;
      const appointment = await tx.appointments.create({
        garageId: garage.id,
        integrationId: integration.id,
        startsAt: start,
        endsAt: end,
        durationMinutes: 30,
        customer: { name: BENCH_CUSTOMER, email: `customer${n}@example.com`, phone: null },
        vehicle: null,
        productIds: [],
        notes: null,
        externalRef: null,
      });
      if (!without.has('event')) await tx.outbox.enqueue(appointmentEvent('appointment.created', appointment, garage.booking.timezone, localTime));
    });
  };

  /** The appointments and events a slice wrote are removed, so that every slice starts from the same data. */
  const clean = async () => {
    await pool.query(`delete from webhook_events where type = 'appointment.created' and garage_id = $1`, [garage.id]);
    await pool.query(`delete from appointments where customer_name = $1`, [BENCH_CUSTOMER]);
    await pool.query('vacuum analyze appointments, webhook_events, booking_days');
  };

  const slice = async (run) => {
    const pg0 = postgresCpuMs(databaseName);
    const client0 = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() - started < SLICE_MS) {
          await run(next++);
          done += 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(client0);
    const result = { perSecond: done / seconds, clientMicros: (client.user + client.system) / done, postgresMicros: (postgresCpuDelta(pg0, postgresCpuMs(databaseName)) * 1000) / done };
    await clean();
    return result;
  };

  // The event is built from the appointment the insert returns: without the insert, there is no event either.
  const variants = [
    { name: 'whole booking', without: new Set() },
    ...STEPS.map((step) => (step === 'insert' ? { name: 'without insert, event', step: 'insert + event', without: new Set(['insert', 'event']) } : { name: `without ${step}`, step, without: new Set([step]) })),
  ];
  const runs = new Map(variants.map((v) => [v.name, []]));
  await slice(book(new Set()));
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const variant of variants) runs.get(variant.name).push(await slice(book(variant.without)));
  }

  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const of = (name, key) => median(runs.get(name).map((r) => r[key]));
  console.log(`${CONNECTIONS} connections, ${ROUNDS} rounds of ${SLICE_MS / 1000} s per variant; medians, CPU µs per transaction`);
  console.log(`${'variant'.padEnd(22)} ${'tx/s'.padStart(6)} ${'client'.padStart(7)} ${'Postgres'.padStart(9)}   (each round: client / Postgres)`);
  for (const { name } of variants) {
    const each = runs.get(name).map((r) => `${Math.round(r.clientMicros)} / ${Math.round(r.postgresMicros)}`).join(', ');
    console.log(`${name.padEnd(22)} ${String(Math.round(of(name, 'perSecond'))).padStart(6)} ${String(Math.round(of(name, 'clientMicros'))).padStart(7)} ${String(Math.round(of(name, 'postgresMicros'))).padStart(9)}   (${each})`);
  }
  console.log('a step costs the whole booking minus the variant without it:');
  for (const { name, step } of variants.slice(1)) {
    console.log(`  ${step.padEnd(14)} client ${Math.round(of('whole booking', 'clientMicros') - of(name, 'clientMicros'))} µs, Postgres ${Math.round(of('whole booking', 'postgresMicros') - of(name, 'postgresMicros'))} µs`);
  }
} finally {
  await database.drop();
}
