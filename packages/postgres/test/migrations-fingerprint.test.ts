import t from 'tap';
import { sql, type Kysely } from 'kysely';
import { fingerprintOf, migrationsFingerprint } from '../src/migrations/index.js';

// Test databases are copied from a template named by the fingerprint: a change to what a migration sends must name a
// new template, wherever in the code the statement is written.

/** A migration whose `up` reads the same whatever its helper writes. */
const migrationCalling = (helper: () => string) => ({
  up: async (db: Kysely<unknown>) => {
    await sql.raw(helper()).execute(db);
  },
});

t.test('the fingerprint follows what a migration sends, helpers outside up() included', async (t) => {
  const before = migrationCalling(() => 'create table a (id int)');
  const after = migrationCalling(() => 'create table a (id bigint)');
  t.equal(String(before.up), String(after.up), 'the two `up` functions have the same source');
  t.not(await fingerprintOf({ '0001-a': before }), await fingerprintOf({ '0001-a': after }));
  t.equal(await fingerprintOf({ '0001-a': before }), await fingerprintOf({ '0001-a': migrationCalling(() => 'create table a (id int)') }));
});

t.test('the fingerprint follows the parameters, the names and the order of the migrations', async (t) => {
  const withValue = (value: string) => ({
    up: async (db: Kysely<unknown>) => {
      await sql`insert into settings values (${value})`.execute(db);
    },
  });
  const one = migrationCalling(() => 'create table one ()');
  const two = migrationCalling(() => 'create table two ()');
  t.not(await fingerprintOf({ '0001-a': withValue('x') }), await fingerprintOf({ '0001-a': withValue('y') }));
  t.not(await fingerprintOf({ '0001-a': one }), await fingerprintOf({ '0001-b': one }));
  t.not(await fingerprintOf({ '0001-a': one, '0002-b': two }), await fingerprintOf({ '0001-a': two, '0002-b': one }));
});

t.test('the project’s migrations have one fingerprint, the same on every call', async (t) => {
  const fingerprint = await migrationsFingerprint();
  t.match(fingerprint, /^[0-9a-f]{16}$/);
  t.equal(await migrationsFingerprint(), fingerprint);
});
