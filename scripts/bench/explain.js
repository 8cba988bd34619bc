// The query plans of the read path: the exact SQL the repositories send, captured at the pool, then run
// again under EXPLAIN (ANALYZE, BUFFERS) on the bench's data. Printed in short by `pnpm bench` (which index, how many
// rows, how long); `--explain` prints every plan in full.
import { connectPostgres, makeListVersionProbe, makeRepositories } from '../../packages/postgres/dist/index.js';
import { busyRange } from './seed.js';

/** A pool whose clients record every (text, values) they are asked to run while `recording` is on. */
const recordingHandle = (databaseUrl) => {
  const handle = connectPostgres({ connectionString: databaseUrl, max: 1, applicationName: 'bench-explain' });
  const state = { recording: false, queries: [] };
  const connect = handle.pool.connect.bind(handle.pool);
  // Kysely checks clients out with a promise; pool.query (unrecorded) passes a callback and is left alone.
  handle.pool.connect = (...args) => {
    if (args.length > 0) return connect(...args);
    return connect().then((client) => record(client));
  };
  const record = (client) => {
    if (!client.benchRecording) {
      const query = client.query.bind(client);
      client.query = (text, values, ...rest) => {
        if (state.recording && typeof text === 'string') state.queries.push({ text, values });
        return query(text, values, ...rest);
      };
      client.benchRecording = true;
    }
    return client;
  };
  return { handle, state };
};

/** The reads a connector's requests make, with the bench's garages: first pages, deep pages, filters, probes. */
const readsOf = async (repositories, probe, { big, regular, busy }, pool) => {
  const { rows } = await pool.query(
    `select updated_at, id from products where garage_id = $1 and active order by updated_at, id offset 50000 limit 1`,
    [big.id],
  );
  const middle = { sortValue: rows[0].updated_at, id: rows[0].id };
  const list = { limit: 100, after: null, updatedSince: null };
  const month = busyRange();
  return [
    ['products, first page', () => repositories.products.list({ ...list, garageId: big.id, sku: null, includeInactive: false })],
    ['products, page 500 of 1,000 (cursor)', () => repositories.products.list({ ...list, garageId: big.id, sku: null, includeInactive: false, after: middle })],
    ['products ?updatedSince= (inactive included)', () => repositories.products.list({ ...list, garageId: big.id, sku: null, includeInactive: true, updatedSince: new Date(Date.now() - 7 * 86_400_000) })],
    ['products ?sku=', () => repositories.products.list({ ...list, garageId: big.id, sku: 'SKU-054321', includeInactive: false })],
    ['stock, page 500 of 1,000 (cursor)', () => repositories.stock.list({ ...list, garageId: big.id, sku: null, after: middle })],
    ['stock ?sku=', () => repositories.stock.list({ ...list, garageId: big.id, sku: 'SKU-054321' })],
    ['vehicles, first page', () => repositories.vehicles.list({ ...list, garageId: regular[0].id, make: null, fuel: null })],
    ['list version probe, products of 50 garages', () => probe.versions('products', regular.map((g) => g.id))],
    ['list version probe, stock', () => probe.versions('stock', [big.id])],
    ['list version probe, vehicles', () => probe.versions('vehicles', [regular[0].id])],
    // Its read of places, when days are computed, is not here: the busy garage holds nearly every appointment of
    // this data set, so Postgres rightly reads the table whole; packages/postgres/test/appointment-queries.test.ts
    // proves the index serves it.
    ['availability: garage, closures and day versions (every request)', () => repositories.availability.findCalendars([{ garageId: busy.id, dates: month }])],
  ];
};

/** What a plan says in one line: the scans and the indexes they use, rows returned, execution time. */
const summarise = (plan) => {
  // A function's own queries (availability_calendar's) do not show in its caller's plan: it shows as a Function Scan.
  const scans = [...plan.matchAll(/(Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan|Function Scan)(?: Backward)?(?: using (\S+))? on (\S+)/g)].map(
    ([, kind, index, table]) => `${kind}${index ? ` ${index}` : ''} on ${table}`,
  );
  const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
  const rows = /actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(plan)?.[1];
  return `${[...new Set(scans)].join('; ')}; ${rows} rows in ${time} ms`;
};

/** `[{ name, sql, plan, summary, sequential }]` for every query of `readsOf`; `sequential`: it reads a big table whole. */
export const explainReadPath = async (databaseUrl, garages) => {
  const { handle, state } = recordingHandle(databaseUrl);
  try {
    const repositories = makeRepositories(handle.db);
    const probe = makeListVersionProbe(handle.db);
    const out = [];
    for (const [name, read] of await readsOf(repositories, probe, garages, handle.pool)) {
      state.queries = [];
      state.recording = true;
      await read();
      state.recording = false;
      for (const { text, values } of state.queries) {
        const { rows } = await handle.pool.query(`explain (analyze, buffers) ${text}`, values);
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        out.push({ name, sql: text, plan, summary: summarise(plan), sequential: /Seq Scan on (products|stock|vehicles|appointments)\b/.test(plan) });
      }
    }
    return out;
  } finally {
    await handle.close();
  }
};
