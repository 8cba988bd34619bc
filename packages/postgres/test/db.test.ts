import t from 'tap';
import { connectPostgres } from '../src/db.js';
import { createTestDatabase } from '@garage/postgres/testing';

t.test('closing a Postgres handle that only answered readiness probes ends its pool', async (t) => {
  const database = await createTestDatabase('pgdb');
  t.teardown(() => database.drop());
  const handle = connectPostgres({ connectionString: database.url });
  await handle.ping();
  await handle.close();
  t.equal(handle.pool?.ended, true);
});
