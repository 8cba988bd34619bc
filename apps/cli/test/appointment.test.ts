import t from 'tap';
import { cliFails, cliJson, UUID, LOOPBACK_WEBHOOKS } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

/** `appointment list` and `appointment set-status` (docs/reference/contract.md §4.6, §6 Admin CLI). */
const { env, query } = await cliDatabase(t);

t.test('appointment commands', async (t) => {
  const garage = await cliJson(t, ['garage', 'create', '--slug', 'north', '--name', 'Garage Nord'], env);
  const integration = await cliJson(t, ['integration', 'create', '--garage', 'north', '--name', 'Shop', '--sync', 'appointments', '--webhook-url', 'http://127.0.0.1:9/hooks'], { ...env, ...LOOPBACK_WEBHOOKS });
  const book = async (startsAt: string, ref: string) => {
    const [row] = await query<{ id: string }>(
      `insert into appointments (garage_id, integration_id, starts_at, ends_at, duration_minutes, customer_name, customer_email, external_ref)
       values ($1, $2, $3::timestamptz, $3::timestamptz + interval '30 minutes', 30, 'Jeanne Martin', 'jeanne@example.com', $4) returning id`,
      [garage.id, integration.id, startsAt, ref],
    );
    return (row as { id: string }).id;
  };
  const first = await book('2027-01-05T09:00:00+01:00', 'ref-1');
  const second = await book('2027-01-06T10:00:00+01:00', 'ref-2');

  t.test('appointment list prints [appointment], filtered by local dates and status', async (t) => {
    const all = await cliJson(t, ['appointment', 'list', '--garage', 'north'], env);
    t.equal(all.length, 2);
    t.match(all.find((a: { id: string }) => a.id === first), {
      id: first,
      status: 'booked',
      startsAt: '2027-01-05T09:00:00+01:00',
      endsAt: '2027-01-05T09:30:00+01:00',
      durationMinutes: 30,
      customer: { name: 'Jeanne Martin', email: 'jeanne@example.com', phone: null },
      vehicle: null,
      productIds: [],
      externalRef: 'ref-1',
      integrationId: integration.id,
      cancelledAt: null,
      cancellationReason: null,
    });
    t.same((await cliJson(t, ['appointment', 'list', '--garage', 'north', '--from', '2027-01-06'], env)).map((a: { id: string }) => a.id), [second]);
    t.same((await cliJson(t, ['appointment', 'list', '--garage', 'north', '--to', '2027-01-05'], env)).map((a: { id: string }) => a.id), [first]);
    t.same(await cliJson(t, ['appointment', 'list', '--garage', 'north', '--status', 'cancelled'], env), []);
    await cliFails(t, ['appointment', 'list', '--garage', 'nowhere', '--json'], env, 2, [/NOT_FOUND/]);
    await cliFails(t, ['appointment', 'list', '--garage', 'north', '--status', 'lost', '--json'], env, 1, [/must be one of/]);
  });

  t.test('appointment set-status prints {id, status}, moves updatedAt and writes the event', async (t) => {
    const [before] = await query<{ updated_at: Date }>('select updated_at from appointments where id = $1', [first]);
    t.same(await cliJson(t, ['appointment', 'set-status', first, 'confirmed'], env), { id: first, status: 'confirmed' });
    const [after] = await query<{ updated_at: Date }>('select updated_at from appointments where id = $1', [first]);
    t.ok((after?.updated_at.getTime() ?? 0) > (before?.updated_at.getTime() ?? 0), 'updatedAt moved');
    t.same(await cliJson(t, ['appointment', 'set-status', first, 'confirmed'], env), { id: first, status: 'confirmed' }, 'the same status again changes nothing');
    t.same(await cliJson(t, ['appointment', 'set-status', second, 'cancelled', '--reason', 'Garage closed'], env), { id: second, status: 'cancelled' });
    const [cancelled] = await query('select status, cancellation_reason, cancelled_at is not null as dated from appointments where id = $1', [second]);
    t.same(cancelled, { status: 'cancelled', cancellation_reason: 'Garage closed', dated: true });
    const events = await query<{ type: string; id: string; status: string }>(
      "select type, payload->>'id' as id, payload->>'status' as status from webhook_events order by created_at, type",
    );
    t.same(events.map((e) => [e.type, e.id, e.status]), [['appointment.updated', first, 'confirmed'], ['appointment.cancelled', second, 'cancelled']], 'one event per change');
    const [deliveries] = await query<{ n: number }>('select count(*)::int as n from webhook_deliveries');
    t.equal(deliveries?.n, 2, 'to the integration with syncAppointments and a webhook URL');
  });

  t.test('set-status refuses what the lifecycle does not allow', async (t) => {
    await cliFails(t, ['appointment', 'set-status', second, 'completed', '--json'], env, 2, [/APPOINTMENT_NOT_CHANGEABLE/]);
    await cliFails(t, ['appointment', 'set-status', first, 'booked', '--json'], env, 1, [/must be one of confirmed\|completed\|no_show\|cancelled|must be one of/]);
    await cliFails(t, ['appointment', 'set-status', first, 'completed', '--reason', 'x', '--json'], env, 1, [/VALIDATION_FAILED/, /only for a cancellation/]);
    await cliFails(t, ['appointment', 'set-status', '2b2b2b2b-2b2b-4b2b-8b2b-2b2b2b2b2b2b', 'confirmed', '--json'], env, 2, [/NOT_FOUND/]);
    await cliFails(t, ['appointment', 'set-status', 'nope', 'confirmed', '--json'], env, 1, [/must be a UUID/]);
    t.same(await cliJson(t, ['appointment', 'set-status', first, 'completed'], env), { id: first, status: 'completed' });
    t.match(first, UUID);
  });
});
