import t from 'tap';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestDatabase } from '@garage/postgres/testing';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./fixtures/promoted-share.ts', import.meta.url));
/** The one loader the fixture needs (its imports name the sources' .js): tap's hooks change what the reads keep. */
const resolveTs = new URL('../../../scripts/test/resolve-ts.mjs', import.meta.url).href;

interface Measure {
  scavenges: number;
  share: number;
}

t.test('the rows a query reads die young: they are not kept until a major collection', async (t) => {
  const database = await createTestDatabase('results_young');
  t.teardown(() => database.drop());
  // A process of its own, as the API runs: this one has run pg's promise form already (the test database was made so),
  // and tap's module hooks are in it and in the NODE_OPTIONS it passes on.
  const env = { PATH: process.env.PATH, DATABASE_URL: database.url };
  // The young generation at the size `pnpm start` and the image give it, from the start: one that is still growing
  // promotes whatever is live when it fills, which is not what is measured here.
  const flags = ['--min-semi-space-size=8', '--max-semi-space-size=8', `--import=${resolveTs}`];
  const { stdout } = await run(process.execPath, [...flags, fixture], { env, encoding: 'utf8' });
  const { adapter, pgPromiseForm } = JSON.parse(stdout) as { adapter: Measure; pgPromiseForm: Measure };
  const percent = ({ share }: Measure) => `${(share * 100).toFixed(1)} % of the bytes read promoted`;

  t.ok(adapter.scavenges > 0 && pgPromiseForm.scavenges > 0, 'the young generation was collected while the pages were read');
  t.ok(adapter.share < 0.05, `through Kysely and the adapter's pool: ${percent(adapter)}`);
  // The reference, which shows that the measure sees what it must. Should it fail, pg's promise form no longer keeps
  // results so, and the adapter's callback form (src/pg-query.ts) has lost its reason.
  t.ok(pgPromiseForm.share > 0.25, `pg's promise form: ${percent(pgPromiseForm)}`);
});
