import t from 'tap';
import { APPOINTMENT_STATUSES, holdsPlace, MAX_DURATION_MINUTES, type AppointmentStatus } from '@garage/domain';
import { sql, type Kysely } from 'kysely';
import { appliedSqlRulesDigest, makeRepositories, type Database, type Executor } from '../src/index.js';
import { listOverlappingUnderLock } from '../src/repositories/appointment-repository.js';
import { acquireBookingLock } from '../src/repositories/locks.js';
import { SYNC_TOGGLE_COLUMNS } from '../src/repositories/sync-toggle-columns.js';
import { sqlRulesDigest } from '../src/sql-rules/index.js';
import { holdsPlaceSql } from '../src/sql-rules/place-holding.js';
import { backends, insertGarage, insertIntegration } from '@garage/postgres/testing';

// Where SQL repeats a rule of the domain (docs/contributors/sql-rules.md), the database follows the domain: the
// generated functions are the ones a migration applied, and the index and constraints that restate a rule agree.

t.test('the SQL rules written from the domain today are the ones the newest migration applied', async (t) => {
  t.equal(
    sqlRulesDigest(),
    appliedSqlRulesDigest(),
    'the domain changed what src/sql-rules writes: add a migration that calls applySqlRules and records the new digest',
  );
});

const DAY = '2030-03-05';
const at = (date: string, time: string) => new Date(`${date}T${time}Z`);

const insertAppointment = async (
  db: Executor,
  garageId: string,
  integrationId: string,
  startsAt: Date,
  endsAt: Date,
  status: AppointmentStatus = 'booked',
): Promise<string> => {
  const row = await db
    .insertInto('appointments')
    .values({
      garage_id: garageId,
      integration_id: integrationId,
      starts_at: startsAt,
      ends_at: endsAt,
      duration_minutes: Math.round((endsAt.getTime() - startsAt.getTime()) / 60_000),
      customer_name: 'Ada',
      customer_email: null,
      customer_phone: null,
      vehicle: null,
      notes: null,
      external_ref: null,
      status,
      cancelled_at: null,
      cancellation_reason: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
};

/** Runs `body` in a transaction that is rolled back: what it creates to compare with is never kept. */
const rolledBack = async <T>(db: Kysely<Database>, body: (trx: Executor) => Promise<T>): Promise<T> => {
  const discard = new Error('rolled back');
  let result: T | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      result = await body(trx);
      throw discard;
    })
    .catch((err: unknown) => {
      if (err !== discard) throw err;
    });
  return result as T;
};

const errorCodeOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'stored',
    (err: { code?: unknown }) => err.code,
  );

for (const backend of backends) {
  t.test(backend.name, async (t) => {
    const { handle, drop } = await backend.open();
    t.teardown(drop);
    const { db } = handle;
    const repos = makeRepositories(db);
    const garageId = await insertGarage(db);
    const { id: integrationId } = await insertIntegration(db, garageId, { webhookUrl: null });

    const versionsOn = async (from: string, to: string) => {
      const [calendar] = await repos.availability.findCalendars([{ garageId, dates: { from, to } }]);
      return Object.fromEntries(calendar?.versions ?? []);
    };

    t.test('the places held are those of the statuses the domain says hold one', async (t) => {
      const startsAt = at('2030-02-01', '09:00:00');
      const endsAt = at('2030-02-01', '10:00:00');
      const held = await rolledBack(db, async (trx) => {
        const counts: Partial<Record<AppointmentStatus, number>> = {};
        for (const status of APPOINTMENT_STATUSES) {
          const id = await insertAppointment(trx, garageId, integrationId, startsAt, endsAt, status);
          const { rows } = await sql<{ n: number }>`
            select count(*)::int as n from booking_places(${garageId}, ${new Date(startsAt.getTime() - MAX_DURATION_MINUTES * 60_000)},
                                                          ${startsAt}, ${endsAt}, null) p`.execute(trx);
          counts[status] = rows[0]?.n ?? 0;
          await trx.deleteFrom('appointments').where('id', '=', id).execute();
        }
        return counts;
      });
      t.same(held, Object.fromEntries(APPOINTMENT_STATUSES.map((status) => [status, holdsPlace({ status }) ? 1 : 0])));
    });

    t.test('the partial index that serves occupancy has the domain’s predicate', async (t) => {
      const [indexed, generated] = await rolledBack(db, async (trx) => {
        await sql.raw(`create index sql_rules_check on appointments (garage_id) where ${holdsPlaceSql('status')}`).execute(trx);
        const predicateOf = async (name: string) =>
          (await sql<{ predicate: string }>`
            select pg_get_expr(i.indpred, i.indrelid) as predicate from pg_index i where i.indexrelid = ${name}::regclass`.execute(trx)).rows[0]?.predicate;
        return [await predicateOf('appointments_place_idx'), await predicateOf('sql_rules_check')];
      });
      t.ok(indexed);
      t.equal(indexed, generated, 'a change to PLACE_HOLDING_STATUSES needs a migration that rebuilds appointments_place_idx');
    });

    t.test('the database stores exactly the durations the domain allows', async (t) => {
      const startsAt = at('2030-02-02', '06:00:00');
      const longest = new Date(startsAt.getTime() + MAX_DURATION_MINUTES * 60_000);
      t.equal(await errorCodeOf(rolledBack(db, (trx) => insertAppointment(trx, garageId, integrationId, startsAt, longest))), 'stored', `${MAX_DURATION_MINUTES} minutes is stored`);
      const longer = new Date(longest.getTime() + 1);
      t.equal(await errorCodeOf(insertAppointment(db, garageId, integrationId, startsAt, longer)), '23514', 'a millisecond more is refused by a check');
    });

    t.test('a change made in SQL, outside the application, moves the versions of the days it touches', async (t) => {
      t.same(await versionsOn('2030-03-01', '2030-03-31'), {});
      const id = await insertAppointment(db, garageId, integrationId, at(DAY, '10:00:00'), at(DAY, '11:00:00'));
      t.same(await versionsOn('2030-03-01', '2030-03-31'), { [DAY]: 1 }, 'an insert');
      await db.updateTable('appointments').set({ status: 'cancelled' }).where('id', '=', id).execute();
      t.same(await versionsOn('2030-03-01', '2030-03-31'), { [DAY]: 3 }, 'an update moves the days before and after the change');
      await db.updateTable('appointments').set({ starts_at: at('2030-03-07', '10:00:00'), ends_at: at('2030-03-07', '11:00:00') }).where('id', '=', id).execute();
      t.same(await versionsOn('2030-03-01', '2030-03-31'), { [DAY]: 4, '2030-03-07': 1 }, 'a move: the day it left and the day it reached');
      await db.deleteFrom('appointments').where('id', '=', id).execute();
      t.same(await versionsOn('2030-03-01', '2030-03-31'), { [DAY]: 4, '2030-03-07': 2 }, 'a delete');
    });

    t.test('a writer that takes the day’s lock moves its version once, by the lock', async (t) => {
      await db.transaction().execute(async (trx) => {
        await acquireBookingLock(trx, { garageId, localDate: '2030-03-09' });
        await insertAppointment(trx, garageId, integrationId, at('2030-03-09', '10:00:00'), at('2030-03-09', '11:00:00'));
      });
      // Booking's path: the lock taken inside booking_places_under_lock, with its places.
      await db.transaction().execute(async (trx) => {
        await listOverlappingUnderLock(trx, { garageId, localDate: '2030-03-10' }, at('2030-03-10', '10:00:00'), at('2030-03-10', '11:00:00'));
        await insertAppointment(trx, garageId, integrationId, at('2030-03-10', '10:00:00'), at('2030-03-10', '11:00:00'));
      });
      t.same(await versionsOn('2030-03-09', '2030-03-10'), { '2030-03-09': 1, '2030-03-10': 1 });
    });

    t.test('an event reaches the integrations with its audience’s toggle on, or all of them without one', async (t) => {
      const garage = await insertGarage(db);
      const byToggle: Record<string, string> = {};
      for (const [toggle, column] of Object.entries(SYNC_TOGGLE_COLUMNS)) {
        const { id } = await insertIntegration(db, garage, { webhookUrl: `https://example.test/${toggle}`, syncAppointments: false });
        await sql`update integrations set sync_appointments = false, sync_catalog = false, sync_stock = false where id = ${id}`.execute(db);
        await sql`update integrations set ${sql.ref(column)} = true where id = ${id}`.execute(db);
        byToggle[toggle] = id;
      }
      const receivers = async (audience: string | null) => {
        const payload = JSON.stringify({ audience: audience ?? 'all' });
        await sql`select enqueue_webhook_event(${garage}, 'lead.created', ${payload}::jsonb, null, ${audience}, 'sql_rules_test')`.execute(db);
        const { rows } = await sql<{ integration_id: string }>`
          select d.integration_id from webhook_deliveries d
            join webhook_events e on e.id = d.event_id
           where e.garage_id = ${garage} and e.payload = ${payload}::jsonb
           order by d.integration_id`.execute(db);
        return rows.map((r) => r.integration_id);
      };
      for (const [toggle, id] of Object.entries(byToggle)) t.same(await receivers(toggle), [id], toggle);
      t.same(await receivers(null), Object.values(byToggle).sort(), 'no audience: every integration with a webhook');
    });
  });
}
