// What the outside benchmark ran: a new installation on a database of its own, a garage that has just imported its
// 5,000 products through the operator's import (the CLI's use case, never analyzed by hand), a garage of capacity 8
// with a busy month, and the API started as `pnpm start` starts it (its Node flags, no allocator settings). Measured:
// a connector's sync right after the import, a whole catalog read in turn, bookings into the busy month, and the
// API's resident memory at the end.
import { parseEncryptionKey } from '../../packages/domain/dist/index.js';
import { makeAdminUseCases } from '../../packages/composition/dist/index.js';
import { createTestDatabase } from '../../packages/postgres/dist/testing/databases.js';
import { processRssMiB } from './cpu.js';
import { connectInspector, profiled } from './inspector.js';
import { walkCursors } from './fixtures.js';
import { BUSY_APPOINTMENTS_SQL, busyRange } from './seed.js';
import { startApi } from './servers.js';

export const IMPORTED_PRODUCTS = 5_000;
/** A typical catalog: 50 pages of 100. */
const CATALOG_PAGE = 100;

/** An import file as an operator writes one: realistic field sizes, like the bench's set-based seed. */
const importFile = () =>
  Array.from({ length: IMPORTED_PRODUCTS }, (_, n) => {
    const i = n + 1;
    return {
      sku: `IMP-${String(i).padStart(6, '0')}`,
      name: `${['Brake pads', 'Oil filter', 'Engine oil 5W30', 'Wiper blade'][i % 4]} ${i}`,
      priceCents: 500 + ((i * 7919) % 50000),
      ...(i % 4 === 0 ? {} : { description: `Fits most compact cars from 2010 onwards; reference ${i}, sold by the unit, fitted on request.` }),
      category: ['brakes', 'filters', 'oil', 'wipers'][i % 4],
      brand: ['Bosch', 'Valeo', 'Total', 'Castrol'][i % 4],
    };
  });

/** Every free place of the busy month, once each, consecutive requests on different days. */
const freePlaces = async (api, garage) => {
  const { from, to } = busyRange();
  const response = await fetch(`${api.url}/api/public/appointments/availability?from=${from}&to=${to}`, { headers: { 'x-api-key': garage.key } });
  if (response.status !== 200) throw new Error(`availability of the busy month: ${response.status}`);
  const { data } = await response.json();
  const byDay = new Map();
  for (const slot of data) {
    const day = slot.startsAt.slice(0, 10);
    if (!byDay.has(day)) byDay.set(day, []);
    for (let place = 0; place < slot.remaining; place += 1) byDay.get(day).push(slot.startsAt);
  }
  const queues = [...byDay.values()];
  const places = [];
  for (let i = 0; places.length < data.reduce((n, s) => n + s.remaining, 0); i += 1) {
    for (const queue of queues) if (i < queue.length) places.push(queue[i]);
  }
  return places;
};

const scenarios = ({ api, importing, month, cursors, importedAt, places }) => {
  let since = 0;
  let page = 0;
  let booked = 0;
  return [
    {
      name: 'sync right after an import (updatedSince per request)',
      expect: [200],
      target: 'read',
      sync: true,
      distinct: Number.POSITIVE_INFINITY,
      sent: () => since,
      requests: [
        {
          method: 'GET',
          headers: { 'x-api-key': importing.key },
          setupRequest: (request) => {
            // A different instant before the import on every request: the whole import matches, no page repeats.
            since += 1;
            const updatedSince = new Date(importedAt - since).toISOString();
            return { ...request, path: `/api/public/products?limit=${CATALOG_PAGE}&updatedSince=${updatedSince}` };
          },
        },
      ],
    },
    {
      name: `one garage's whole catalog, ${cursors.length + 1} pages read in turn`,
      expect: [200],
      target: 'read',
      catalog: true,
      requests: [
        {
          method: 'GET',
          headers: { 'x-api-key': importing.key },
          setupRequest: (request) => {
            const cursor = page % (cursors.length + 1) === 0 ? null : cursors[(page % (cursors.length + 1)) - 1].cursor;
            page += 1;
            return { ...request, path: `/api/public/products?limit=${CATALOG_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}` };
          },
        },
      ],
    },
    {
      name: 'booking into a busy month (capacity 8, ~4,500 appointments), one request per free place',
      expect: [201, 409],
      booking: 'month',
      warmup: false,
      // Each free place once, and no more: a fast machine books them all within the run's seconds, and the requests
      // after them, refused, would leave the rate at the number of places over the duration.
      amount: places.length,
      requests: [
        {
          method: 'POST',
          path: '/api/public/appointments',
          headers: { 'content-type': 'application/json', 'x-api-key': month.key },
          setupRequest: (request) => {
            const startsAt = places[booked % places.length];
            booked += 1;
            return { ...request, body: JSON.stringify({ startsAt, customer: { name: `Customer ${booked}`, email: `customer${booked}@example.com` } }) };
          },
        },
      ],
    },
  ].map((s) => ({ warmup: true, url: api.url, ...s }));
};

/**
 * Runs the newcomer's scenarios on a database and an API of their own; `only` filters them by name as `--only` does.
 * With `profileDir`, a CPU profile of the API per scenario is written there, as for the other scenarios.
 * Returns the results (as `measure` gives them, with the API's RSS after each), the free places offered to the
 * booking scenario and the API's RSS at the end.
 */
export const NEWCOMER_SCENARIOS = ['sync right after an import', "one garage's whole catalog", 'booking into a busy month'];

export const benchNewcomer = async ({ apiOptions, only, profileDir, warmUp, measure, log }) => {
  const database = await createTestDatabase('bench_newcomer');
  try {
    const admin = makeAdminUseCases(database.handle.db, [parseEncryptionKey(apiOptions.encryptionKey, 'ENCRYPTION_KEY')]);
    const createGarage = async (slug, settings = {}) => {
      const garage = await admin.createGarage({ slug, name: `Garage ${slug}`, ...settings });
      const created = await admin.createIntegration({ garageSlug: slug, name: 'bench connector', sync: ['appointments', 'catalog', 'stock'], webhookUrl: null });
      return { id: garage.id, integrationId: created.integration.id, slug, key: created.apiKey };
    };
    const importing = await createGarage('bench-import');
    const month = await createGarage('bench-month', { capacity: 8, hours: 'mon-sun 00:00-23:59', minNoticeMinutes: 0 });
    const { rowCount } = await database.handle.pool.query(BUSY_APPOINTMENTS_SQL, [month.id, month.integrationId]);
    // What autovacuum does within a minute of such an insert; the products just imported are left as the import left them.
    await database.handle.pool.query('analyze appointments');
    const started = Date.now();
    const importedAt = Date.now();
    await admin.importProducts(importing.slug, importFile());
    log(`  newcomer: ${IMPORTED_PRODUCTS} products imported in ${Date.now() - started} ms; busy month: ${rowCount} appointments`);

    const api = await startApi({ ...apiOptions, databaseUrl: database.url, asStarted: true, inspect: profileDir !== null });
    const inspector = profileDir ? await connectInspector(api.inspectPort) : null;
    try {
      const { cursors } = await walkCursors(api, importing, CATALOG_PAGE);
      const places = await freePlaces(api, month);
      const databaseName = new URL(database.url).pathname.slice(1);
      const results = [];
      for (const scenario of scenarios({ api, importing, month, cursors, importedAt, places })) {
        if (only && !scenario.name.includes(only)) continue;
        log(`${scenario.name}…`);
        if (scenario.warmup) await warmUp(scenario);
        const run = () => measure(scenario, api, databaseName);
        const result = inspector ? await profiled(inspector, profileDir, scenario.name, run) : await run();
        results.push({ ...result, rssMiB: processRssMiB(api.pid) });
      }
      const rssMiB = processRssMiB(api.pid);
      const { rows: over } = await database.handle.pool.query(
        `select a.starts_at from appointments a join garages g on g.id = a.garage_id
          where a.garage_id = $1 group by a.starts_at, g.capacity having count(*) > g.capacity`,
        [month.id],
      );
      return { results, places: places.length, overbooked: over.length, rssMiB, memorySettings: api.memorySettings };
    } finally {
      // With a debugger attached, the API would wait for it to leave before exiting.
      inspector?.close();
      await api.stop();
    }
  } finally {
    await database.drop();
  }
};
