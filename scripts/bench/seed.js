// Loads the benchmark's data set into a fresh database: garages and integrations through the domain's own admin
// use-cases (real keys, encrypted webhook secrets, validated booking settings), then the bulk rows (products, stock,
// vehicles) with set-based SQL, which loads hundreds of thousands of rows in seconds where per-row imports would take
// minutes.
import { parseEncryptionKey } from '../../packages/domain/dist/index.js';
import { makeAdminUseCases } from '../../packages/composition/dist/index.js';

export const REGULAR_GARAGES = 50;
export const PRODUCTS_PER_GARAGE = 5_000;
export const VEHICLES_PER_GARAGE = 100;
export const BIG_PRODUCTS = 100_000;
export const SMALL_PRODUCTS = 1_000;

const slugOf = (i) => `bench-g${String(i).padStart(2, '0')}`;

/** Three appointments on every 30-minute slot, round the clock, from 3 to 34 days ahead: one booked month. */
export const BUSY_APPOINTMENTS_SQL = `
  insert into appointments (garage_id, integration_id, starts_at, ends_at, duration_minutes, customer_name, customer_email)
  select $1, $2, t, t + interval '30 minutes', 30, 'Busy customer', 'busy@example.com'
  from generate_series(date_trunc('day', now()) + interval '3 days', date_trunc('day', now()) + interval '34 days', interval '30 minutes') as t,
       generate_series(1, 3)`;

/** The local dates (Europe/Paris is at most 2 h from UTC) that the busy month covers, 31 days inclusive. */
export const busyRange = () => {
  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return { from: day(4), to: day(34) };
};

/**
 * Products of each garage in `garages` (`[{id, count}]`): realistic field sizes, 5 % inactive, `updated_at` spread over
 * the last 180 days at millisecond precision (the precision cursors carry) and always in the past, so that the next
 * catalog write still sorts after every row.
 */
export const PRODUCTS_SQL = `
  insert into products (garage_id, sku, name, description, category, brand, price_cents, currency, vat_rate, unit,
                        active, created_at, updated_at)
  select g.id,
         'SKU-' || lpad(i::text, 6, '0'),
         (array['Brake pads', 'Oil filter', 'Engine oil 5W30', 'Wiper blade', 'Spark plug', 'Air filter',
                'Timing belt kit', 'Headlight bulb'])[1 + i % 8] || ' ' || i,
         case when i % 4 = 0 then null
              else 'Fits most compact cars from 2010 onwards; reference ' || i || ', sold by the unit, fitted on request.' end,
         (array['brakes', 'filters', 'oil', 'wipers', 'ignition', 'lighting', null])[1 + i % 7],
         (array['Bosch', 'Valeo', 'Total', 'Castrol', 'Mann', 'NGK', 'Febi', null])[1 + i % 8],
         500 + (i * 7919) % 50000,
         'EUR',
         (array[20, 20, 20, 5.5, 10])[1 + i % 5],
         (array['piece', 'piece', 'litre', 'hour'])[1 + i % 4],
         i % 20 <> 0,
         now() - interval '200 days',
         date_trunc('milliseconds', now() - interval '1 minute' - random() * interval '180 days')
    from unnest($1::uuid[], $2::int[]) as g(id, n), generate_series(1, g.n) as i`;

export const STOCK_SQL = `
  insert into stock (product_id, garage_id, quantity, updated_at)
  select id, garage_id, abs(hashtext(id::text)) % 60,
         greatest(updated_at, date_trunc('milliseconds', now() - interval '1 minute' - random() * interval '90 days'))
    from products where garage_id = any($1::uuid[])`;

/** About one vehicle in ten sold (never listed) and one in ten reserved, three photos each. */
export const VEHICLES_SQL = `
  insert into vehicles (garage_id, reference, make, model, version, year, mileage_km, fuel, gearbox, price_cents,
                        currency, color, description, photos, status, published_at, created_at, updated_at)
  select g.id,
         'VEH-' || lpad(i::text, 4, '0'),
         (array['Peugeot', 'Renault', 'Citroen', 'Volkswagen', 'Toyota', 'Dacia', 'Tesla', 'BMW'])[1 + i % 8],
         (array['208', 'Clio', 'C3', 'Golf', 'Yaris', 'Sandero', 'Model 3', 'Serie 1'])[1 + i % 8],
         case when i % 3 = 0 then null else 'Allure 1.2 PureTech' end,
         2012 + i % 12,
         5000 + (i * 7919) % 150000,
         (array['petrol', 'petrol', 'petrol', 'petrol', 'diesel', 'diesel', 'diesel', 'hybrid', 'electric', 'lpg'])[1 + i % 10],
         (array['manual', 'automatic'])[1 + i % 2],
         500000 + (i * 104729) % 3000000,
         'EUR',
         (array['white', 'black', 'grey', 'blue', 'red'])[1 + i % 5],
         'One owner, full service history, two keys. Inspected and guaranteed twelve months.',
         jsonb_build_array('https://img.example.com/' || g.id || '/' || i || '-1.jpg',
                           'https://img.example.com/' || g.id || '/' || i || '-2.jpg',
                           'https://img.example.com/' || g.id || '/' || i || '-3.jpg'),
         case when i % 10 = 0 then 'sold' when i % 10 = 1 then 'reserved' else 'available' end,
         date_trunc('milliseconds', now() - interval '1 minute' - random() * interval '90 days'),
         now() - interval '100 days',
         date_trunc('milliseconds', now() - interval '1 minute' - random() * interval '30 days')
    from unnest($1::uuid[]) as g(id), generate_series(1, $2::int) as i`;

/**
 * Creates the data set; returns what the scenarios need: per garage its id, slug and an API key of an integration
 * with every toggle on.
 */
/** Days ahead the request log's booking garage takes bookings: some 85,000 places. */
export const LOG_DAYS_HORIZON = 300;

export const seed = async (database, encryptionKey, log) => {
  const db = database.handle.db;
  const pool = database.handle.pool;
  const admin = makeAdminUseCases(db, [parseEncryptionKey(encryptionKey, 'ENCRYPTION_KEY')]);
  const createGarage = async (slug, products, settings = {}) => {
    const garage = await admin.createGarage({ slug, name: `Garage ${slug}`, ...settings });
    const created = await admin.createIntegration({
      garageSlug: slug,
      name: 'bench connector',
      sync: ['appointments', 'catalog', 'stock'],
      webhookUrl: null,
    });
    return { id: garage.id, integrationId: created.integration.id, slug, key: created.apiKey, products };
  };

  const regular = [];
  for (let i = 1; i <= REGULAR_GARAGES; i++) regular.push(await createGarage(slugOf(i), PRODUCTS_PER_GARAGE));
  const big = await createGarage('bench-big', BIG_PRODUCTS);
  const small = await createGarage('bench-small', SMALL_PRODUCTS);
  // Bookings get a garage of their own so that the read scenarios never see its appointments.
  const booking = await createGarage('bench-booking', 0);
  // A garage whose next month is busy: availability over 31 days must count thousands of appointments.
  const busy = await createGarage('bench-busy', 0);
  // Bookings spread over many days (a lock per garage and day): what a garage's many connectors do at once.
  // 15-minute slots, 10 places each: some 17,000 places over the 60-day horizon, enough for the scenario's run.
  const daysSettings = { slotMinutes: 15, capacity: 10, minNoticeMinutes: 0 };
  const days = await createGarage('bench-days', 0, daysSettings);
  // The same again for the request log's booking slices (feature-costs.js), over LOG_DAYS_HORIZON days: four slices of
  // 6 s at 2,000 bookings a second need 48,000 places, and slices left with none would compare refusals.
  const logDays = await createGarage('bench-log-days', 0, { ...daysSettings, horizonDays: LOG_DAYS_HORIZON });

  const catalogGarages = [...regular, big, small];
  // One connection without the pool's statement timeout: a bulk load on a busy machine may well take longer.
  const client = await pool.connect();
  try {
    await client.query('set statement_timeout = 0');
    let started = Date.now();
    await client.query(PRODUCTS_SQL, [catalogGarages.map((g) => g.id), catalogGarages.map((g) => g.products)]);
    await client.query(STOCK_SQL, [catalogGarages.map((g) => g.id)]);
    log(`  products and stock: ${catalogGarages.reduce((n, g) => n + g.products, 0)} each in ${Date.now() - started} ms`);
    started = Date.now();
    await client.query(VEHICLES_SQL, [regular.map((g) => g.id), VEHICLES_PER_GARAGE]);
    log(`  vehicles: ${regular.length * VEHICLES_PER_GARAGE} in ${Date.now() - started} ms`);
    started = Date.now();
    const { rowCount } = await client.query(BUSY_APPOINTMENTS_SQL, [busy.id, busy.integrationId]);
    log(`  busy month: ${rowCount} appointments in ${Date.now() - started} ms`);
    started = Date.now();
    // What autovacuum would have done on a live database: planner statistics, a visibility map for index-only scans.
    await client.query('vacuum analyze products, stock, vehicles, integrations, garages, appointments');
    log(`  vacuum analyze in ${Date.now() - started} ms`);
  } finally {
    client.release();
  }
  return { regular, big, small, booking, busy, days, logDays };
};
