import t from 'tap';
import { cliFails, cliJson, LOOPBACK_WEBHOOKS } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

/** `customer export` and `customer erase` (docs/reference/contract.md §11, docs/operators/personal-data.md). */
const { env, query } = await cliDatabase(t);

t.test('customer commands', async (t) => {
  const garage = await cliJson(t, ['garage', 'create', '--slug', 'north', '--name', 'Garage Nord'], env);
  await cliJson(t, ['garage', 'create', '--slug', 'south', '--name', 'Garage Sud'], env);
  const integration = await cliJson(t, ['integration', 'create', '--garage', 'north', '--name', 'Shop', '--sync', 'appointments', '--webhook-url', 'http://127.0.0.1:9/hooks'], { ...env, ...LOOPBACK_WEBHOOKS });
  const book = async (name: string, email: string, notes: string | null) => {
    const [row] = await query<{ id: string }>(
      `insert into appointments (garage_id, integration_id, starts_at, ends_at, duration_minutes, customer_name, customer_email, customer_phone, notes)
       values ($1, $2, '2027-01-05T09:00:00+01:00', '2027-01-05T09:30:00+01:00', 30, $3, $4, '+33 6 00 00 00 00', $5) returning id`,
      [garage.id, integration.id, name, email, notes],
    );
    return (row as { id: string }).id;
  };
  const mine = await book('Jeanne Martin', 'JEANNE@example.com', 'Brakes squeak');
  await book('Paul Durand', 'paul@example.com', null);
  const [vehicleRow] = await query<{ id: string }>(
    `insert into vehicles (garage_id, reference, make, model, year, mileage_km, fuel, gearbox, price_cents, currency, photos, published_at)
     values ($1, 'V-1', 'Peugeot', '208', 2020, 40000, 'petrol', 'manual', 1200000, 'EUR', '[]', now()) returning id`,
    [garage.id],
  );
  const [leadRow] = await query<{ id: string }>(
    `insert into leads (garage_id, vehicle_id, name, email, phone, message, consent) values ($1, $2, 'Jeanne Martin', 'jeanne@example.com', null, 'Still for sale?', true) returning id`,
    [garage.id, (vehicleRow as { id: string }).id],
  );
  const quote = await cliJson(t, ['quote', 'create', '--garage', 'north', '--customer', 'Jeanne Martin', '--line', 'Brake pads|1|9000|20'], env);
  await cliJson(t, ['quote', 'create', '--garage', 'north', '--customer', 'Paul Durand', '--line', 'Tyres|4|8000|20'], env);
  await query(
    `insert into webhook_events (garage_id, type, payload) values ($1, 'appointment.created', $2)`,
    [garage.id, JSON.stringify({ id: mine, customer: { name: 'Jeanne Martin', email: 'JEANNE@example.com', phone: '+33 6 00 00 00 00' }, notes: 'Brakes squeak', status: 'booked' })],
  );

  t.test('customer export prints {live, sandbox}: every appointment, lead and quote naming the email', async (t) => {
    const found = await cliJson(t, ['customer', 'export', '--garage', 'north', '--email', 'jeanne@EXAMPLE.com'], env);
    t.same(Object.keys(found), ['live', 'sandbox']);
    t.same(found.sandbox, { appointments: [], leads: [], quotes: [] });
    t.match(found.live.appointments, [
      { id: mine, status: 'booked', customer: { name: 'Jeanne Martin', email: 'JEANNE@example.com', phone: '+33 6 00 00 00 00' }, notes: 'Brakes squeak', cancellationReason: null },
    ]);
    t.equal(found.live.appointments.length, 1, 'not Paul\'s');
    t.match(found.live.leads, [{ id: (leadRow as { id: string }).id, name: 'Jeanne Martin', email: 'jeanne@example.com', phone: null, message: 'Still for sale?', consent: true }]);
    t.match(found.live.quotes, [{ id: quote.id, number: quote.number, customerName: 'Jeanne Martin', status: 'pending', totalCents: 10800, currency: 'EUR' }]);
    t.equal(found.live.quotes.length, 1);
    t.same(await cliJson(t, ['customer', 'export', '--garage', 'south', '--email', 'jeanne@example.com'], env), {
      live: { appointments: [], leads: [], quotes: [] },
      sandbox: { appointments: [], leads: [], quotes: [] },
    }, 'another garage holds nothing about her');
    await cliFails(t, ['customer', 'export', '--garage', 'nowhere', '--email', 'jeanne@example.com', '--json'], env, 2, [/NOT_FOUND/]);
  });

  t.test('customer erase prints the counts, rewrites the rows and the stored events, records it without the email', async (t) => {
    const erased = await cliJson(t, ['customer', 'erase', '--garage', 'north', '--email', 'jeanne@example.com'], env);
    t.match(erased, { erasedAt: /^\d{4}-\d\d-\d\dT/, live: { appointments: 1, leads: 1, quotes: 1, events: 1 }, sandbox: { appointments: 0, leads: 0, quotes: 0, events: 0 } });
    t.same(Object.keys(erased), ['erasedAt', 'live', 'sandbox']);
    const [appointment] = await query('select customer_name, customer_email, customer_phone, notes from appointments where id = $1', [mine]);
    t.same(appointment, { customer_name: '[erased]', customer_email: '[erased]', customer_phone: '[erased]', notes: '[erased]' });
    t.same(await query('select name, email, phone, message from leads'), [{ name: '[erased]', email: '[erased]', phone: null, message: '[erased]' }]);
    t.same((await query<{ customer_name: string }>('select customer_name from quotes order by customer_name')).map((q) => q.customer_name), ['Paul Durand', '[erased]']);
    const [event] = await query<{ payload: Record<string, unknown> }>('select payload from webhook_events');
    t.same(event?.payload, { id: mine, customer: { name: '[erased]', email: '[erased]', phone: '[erased]' }, notes: '[erased]', status: 'booked' });
    const [record] = await query('select garage_id, appointments, leads, quotes, events from personal_data_erasures');
    t.same(record, { garage_id: garage.id, appointments: 1, leads: 1, quotes: 1, events: 1 });
    t.same(await cliJson(t, ['customer', 'export', '--garage', 'north', '--email', 'jeanne@example.com'], env), {
      live: { appointments: [], leads: [], quotes: [] },
      sandbox: { appointments: [], leads: [], quotes: [] },
    }, 'nothing names her any more');
    t.match(await cliJson(t, ['customer', 'erase', '--garage', 'north', '--email', 'jeanne@example.com'], env), { live: { appointments: 0, leads: 0, quotes: 0, events: 0 } }, 'a second erasure finds nothing');
  });
});
