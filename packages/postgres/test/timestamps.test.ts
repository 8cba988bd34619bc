// Timestamps are read by position when they have the shape a UTC session sends (issue 18): the result must be pg's own
// parser's, value for value, whatever Postgres sends.
import fc from 'fast-check';
import pg from 'pg';
import t from 'tap';
import { connectPostgres } from '../src/db.js';
import { parseAnyTimestamptz as reference, parseTimestamptz } from '../src/timestamps.js';
import { createTestDatabase } from '@garage/postgres/testing';

const valueOf = (parsed: Date | number) => (parsed instanceof Date ? parsed.getTime() : parsed);
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** What Postgres writes for an instant in a session at `offset`: `YYYY-MM-DD HH:MM:SS[.ffffff]+00`, `-05:30`, … */
const written = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.stringMatching(/^\d{0,6}$/),
    offset: fc.constantFrom('+00', '+00', '+00', '-05', '+05:30', '+01', '-03:30'),
    bc: fc.boolean(),
  })
  .map(({ year, month, day, hour, minute, second, fraction, offset, bc }) =>
    `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)} ${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${fraction ? `.${fraction}` : ''}${offset}${bc ? ' BC' : ''}`,
  );

t.test("every shape Postgres writes parses to pg's own value", async (t) => {
  fc.assert(
    fc.property(written, (text) => {
      t.equal(valueOf(parseTimestamptz(text)), valueOf(reference(text)), text);
    }),
    { numRuns: 2000 },
  );
  for (const text of ['infinity', '-infinity', '0099-01-01 00:00:00+00', '10000-01-01 00:00:00+00', '2026-11-26 09:31:15.+00', '2026-11-26T09:31:15Z']) {
    t.same(valueOf(parseTimestamptz(text)), valueOf(reference(text)), text);
  }
});

t.test('a real Postgres: timestamps come back as pg would have parsed them', async (t) => {
  const database = await createTestDatabase('timestamps');
  t.teardown(() => database.drop());
  // The pool of the adapter, whose module registers the parser for every pg client of the process.
  const handle = connectPostgres({ connectionString: database.url, max: 1 });
  t.teardown(() => handle.close());
  const pool = handle.pool!;
  // By name: the test kit loads the package's build, whose module registers its own copy.
  t.equal(pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ).name, parseTimestamptz.name, 'registered');
  for (const zone of ['UTC', 'Asia/Kolkata', 'America/St_Johns']) {
    await pool.query(`set timezone = '${zone}'`);
    const { rows } = await pool.query<{ at: Date; text: string }>(
      `select at, at::text as text from (select (timestamptz '2026-11-26 09:31:15.123456+00' + g * interval '37 hours 11 minutes 13.537 seconds') as at
         from generate_series(-40000, 40000, 997) g) s`,
    );
    for (const { at, text } of rows) t.equal(at.getTime(), valueOf(reference(text)), `${zone} ${text}`);
  }
});
