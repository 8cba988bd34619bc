// What each of a booking's two statements costs the client and Postgres: the garage's calendar (`findWithClosures`,
// which also reads the database's time) and the write under the day's lock (`book_if_room`). The booking use case runs
// on the adapter's own repositories (Kysely, pg, the pool wrapper), without HTTP, on a garage of capacity 8 with a busy
// month; so does each statement alone, the variants alternated in rounds. What the whole booking costs beyond its two
// statements alone is the use case's own work (parsing, the slot model, the appointment and its event) and the two
// statements in turn (docs/operators/performance.md, "Bookings").
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node scripts/bench/booking-statements.js [--connections=32] [--rounds=3] [--seconds=3]
//
// Needs the packages built (`pnpm -s turbo run build`). The database is created for the run and dropped after it.
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { appointmentEvent, appointmentView, isDomainError, makeBookAppointment, makeLocalTime, parseEncryptionKey, systemClock } from '../../packages/domain/dist/index.js';
import { makeAdminUseCases } from '../../packages/composition/dist/index.js';
import { makeRepositories } from '../../packages/postgres/dist/index.js';
import { createTestDatabase } from '../../packages/postgres/dist/testing/databases.js';
import { postgresCpuDelta, postgresCpuMs } from './cpu.js';
import { BUSY_APPOINTMENTS_SQL } from './seed.js';

const { values: options } = parseArgs({
  options: { connections: { type: 'string', default: '32' }, rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '3' } },
});
const CONNECTIONS = Number(options.connections);
const ROUNDS = Number(options.rounds);
const SLICE_MS = Number(options.seconds) * 1000;
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
  const repos = makeRepositories(db);
  const localTime = makeLocalTime();
  const book = makeBookAppointment({ repos, clock: systemClock, localTime });
  const principal = { garageId: garage.id, integrationId: integration.id };
  const { timezone } = garage.booking;

  // Starts on every half hour of the busy month but the day's last (the garage closes at 23:59), a day apart from one
  // booking to the next as the newcomer's scenario books, so that concurrent bookings rarely wait for one day's lock.
  // Local midnights: the use case reads the start in the garage's zone.
  const DAYS = 31;
  const SLOTS = 47;
  /** The places the busy month leaves (3 of 8 taken on every slot): a slice ends early rather than book past them. */
  const PLACES = DAYS * SLOTS * 5;
  const firstDate = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const midnights = Array.from({ length: DAYS }, (_, day) => {
    const date = new Date(Date.parse(`${firstDate}T12:00:00Z`) + day * 86_400_000).toISOString().slice(0, 10);
    return { date, at: new Date(localTime.dayFacts(timezone, date).startMs) };
  });
  const startOf = (n) => {
    const { date, at } = midnights[n % DAYS];
    return { date, start: new Date(at.getTime() + (Math.floor(n / DAYS) % SLOTS) * 1_800_000) };
  };
  const customer = (n) => ({ name: BENCH_CUSTOMER, email: `customer${n}@example.com`, phone: null });

  /** A refusal (a slot already full) is an answer too: counted, and the next booking goes on. */
  const counted = (step) => async (n) => {
    try {
      await step(n);
      return true;
    } catch (err) {
      if (isDomainError(err)) return false;
      throw err;
    }
  };
  const steps = {
    'whole booking': counted((n) => book({ principal, startsAt: startOf(n).start.toISOString(), customer: customer(n) })),
    'calendar alone': counted((n) => {
      const { date } = startOf(n);
      return repos.garages.findWithClosures(garage.id, date, date);
    }),
    'write alone': counted(async (n) => {
      const { date, start } = startOf(n);
      const at = new Date();
      const appointment = {
        id: randomUUID(),
        ...principal,
        startsAt: start,
        endsAt: new Date(start.getTime() + 1_800_000),
        durationMinutes: 30,
        customer: customer(n),
        vehicle: null,
        productIds: [],
        notes: null,
        externalRef: null,
        status: 'booked',
        createdAt: at,
        updatedAt: at,
        cancelledAt: null,
        cancellationReason: null,
      };
      const booked = await repos.bookings.bookIfRoom({
        lock: { garageId: garage.id, localDate: date },
        capacity: 8,
        slotMinutes: 30,
        slots: [start],
        appointment,
        event: appointmentEvent('appointment.created', garage.id, appointmentView(appointment, timezone, localTime)),
      });
      if (!booked) throw new Error('the write alone found a slot full: the bench books past its places');
    }),
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
    let refused = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() - started < SLICE_MS && next < PLACES) {
          if (!(await run(next++))) refused += 1;
          done += 1;
        }
      }),
    );
    if (refused > 0) throw new Error(`${refused} of ${done} bookings were refused: the slice booked past the month's places`);
    const seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(client0);
    const result = { perSecond: done / seconds, clientMicros: (client.user + client.system) / done, postgresMicros: (postgresCpuDelta(pg0, postgresCpuMs(databaseName)) * 1000) / done };
    await clean();
    return result;
  };

  const variants = Object.keys(steps);
  const runs = new Map(variants.map((name) => [name, []]));
  await slice(steps['whole booking']);
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const name of variants) runs.get(name).push(await slice(steps[name]));
  }

  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const of = (name, key) => median(runs.get(name).map((r) => r[key]));
  console.log(`${CONNECTIONS} connections, ${ROUNDS} rounds of ${SLICE_MS / 1000} s per variant; medians, CPU µs per call`);
  console.log(`${'variant'.padEnd(16)} ${'calls/s'.padStart(8)} ${'client'.padStart(7)} ${'Postgres'.padStart(9)}   (each round: client / Postgres)`);
  for (const name of variants) {
    const each = runs.get(name).map((r) => `${Math.round(r.clientMicros)} / ${Math.round(r.postgresMicros)}`).join(', ');
    console.log(`${name.padEnd(16)} ${String(Math.round(of(name, 'perSecond'))).padStart(8)} ${String(Math.round(of(name, 'clientMicros'))).padStart(7)} ${String(Math.round(of(name, 'postgresMicros'))).padStart(9)}   (${each})`);
  }
  const own = (key) => Math.round(of('whole booking', key) - of('calendar alone', key) - of('write alone', key));
  console.log(`the whole booking beyond both statements alone (the use case's own work, and two statements in turn): client ${own('clientMicros')} µs, Postgres ${own('postgresMicros')} µs`);
} finally {
  await database.drop();
}
