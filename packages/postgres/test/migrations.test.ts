import { createTestDatabase } from '@garage/postgres/testing';
import { sql } from 'kysely';
import t from 'tap';
import { connectPostgres, migrateToLatest } from '../src/index.js';

/** docs/contributors/migrations.md: indexes built concurrently after the migrations, by one instance at a time. */
const RETENTION_INDEXES = ['webhook_attempts_attempted_idx', 'webhook_deliveries_created_idx', 'webhook_events_created_idx'];

t.test('instances starting together build the missing indexes once, and rebuild an invalid one', async (t) => {
  const database = await createTestDatabase('migrations');
  t.teardown(database.drop);
  const { db } = database.handle;
  const indexes = async () =>
    (
      await sql<{ name: string; valid: boolean }>`
        select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
         where c.relname = any(${RETENTION_INDEXES}::text[]) order by c.relname`.execute(db)
    ).rows;
  t.same(await indexes(), RETENTION_INDEXES.map((name) => ({ name, valid: true })), 'a migrated database has them');

  for (const name of RETENTION_INDEXES) await sql`drop index ${sql.ref(name)}`.execute(db);
  const instances = Array.from({ length: 3 }, () => connectPostgres({ connectionString: database.url, max: 2 }));
  t.teardown(() => Promise.all(instances.map((instance) => instance.close())));
  t.same(await Promise.all(instances.map((instance) => migrateToLatest(instance.db))), [[], [], []], 'no migration was pending');
  t.same(await indexes(), RETENTION_INDEXES.map((name) => ({ name, valid: true })), 'each built, by one of them');

  // What a build cut short leaves behind (a crash, a deadlock): an index Postgres does not use.
  await sql`update pg_index set indisvalid = false where indexrelid = 'webhook_events_created_idx'::regclass`.execute(db);
  await migrateToLatest(db);
  t.same(await indexes(), RETENTION_INDEXES.map((name) => ({ name, valid: true })), 'dropped and built again');
});
