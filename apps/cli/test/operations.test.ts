import t from 'tap';
import { cliFails, cliJson, runCli, runCliProcess, UUID } from './helpers/cli.js';
import { cliDatabase } from './helpers/database.js';

const { env, query } = await cliDatabase(t);

t.test('migrate on an up-to-date database applies nothing', async (t) => {
  t.same(await cliJson(t, ['migrate'], env), { migrated: [] });
  const human = await runCli(['migrate'], env);
  t.equal(human.code, 0);
  t.equal(human.stdout, 'Database already up to date.\n');
});

t.test('seed demo prints the demo slug, keys and quote tokens', async (t) => {
  const demo = await cliJson(t, ['seed', 'demo'], env);
  t.same(Object.keys(demo), ['garage', 'integrations', 'quotes']);
  t.equal(demo.garage, 'demo');
  t.equal(demo.integrations.length, 1);
  for (const i of demo.integrations) {
    t.same(Object.keys(i).sort(), ['apiKey', 'id', 'name', 'sandboxGarageSlug', 'testApiKey', 'testWebhookSecret', 'webhookSecret']);
    t.match(i.id, UUID);
    t.match(i.apiKey, /^[0-9a-f]{32}$/);
    t.match(i.testApiKey, /^[0-9a-f]{32}$/, 'the test key beside the live key');
    t.match(i.sandboxGarageSlug, /^demo-sandbox-[0-9a-f]{8}$/);
    t.match(i.webhookSecret, /^whsec_/);
  }
  t.same(demo.quotes.map((q: any) => q.status), ['pending', 'expired']);
  for (const q of demo.quotes) t.same(Object.keys(q).sort(), ['id', 'number', 'status', 'token']);

  const list = await cliJson(t, ['integration', 'list', '--garage', 'demo'], env);
  t.same(list.map((i: any) => i.sync), [['appointments', 'catalog', 'stock']]);

  const again = await runCli(['seed', 'demo'], env);
  t.equal(again.code, 0, 'seeding twice keeps the garage and issues fresh credentials');
  t.match(again.stdout, /^Demo garage: demo\n/);
  t.match(again.stdout, /API key: +[0-9a-f]{32}/);
  t.equal((await query("select id from garages where slug = 'demo'")).length, 1);
  t.equal((await query('select id from integrations where live_integration_id is null')).length, 2, 'a fresh demo integration, its test side beside it');
});

t.test('usage errors: commander reports on stderr with exit 1; help goes to stdout with exit 0', async (t) => {
  await Promise.all([
    cliFails(t, ['frobnicate'], env, 1, [/unknown command 'frobnicate'/]),
    cliFails(t, ['garage', 'create', '--slug', 'x', '--name', 'X', '--colour', 'red', '--json'], env, 1, [/unknown option '--colour'/]),
    cliFails(t, ['garage'], env, 1, [/Usage: pnpm cli garage/]),
    cliFails(t, ['integration', 'revoke', '--json'], env, 1, [/missing required argument 'id'/]),
  ]);
  const help = await runCliProcess(['--help'], env);
  t.equal(help.code, 0);
  for (const command of ['migrate', 'garage', 'integration', 'import', 'quote', 'seed']) t.match(help.stdout, new RegExp(`\\n  ${command}\\b`));
  const createHelp = await runCli(['integration', 'create', '--help'], env);
  t.match(createHelp.stdout, /--sync <toggles>/);
  t.match(createHelp.stdout, /--json/);
});

t.test('configuration and connection failures are reported without a stack trace', async (t) => {
  await Promise.all([
    cliFails(t, ['garage', 'create', '--slug', 'x', '--name', 'X', '--json'], { DATABASE_URL: env.DATABASE_URL }, 1, [/ENCRYPTION_KEY/]),
    cliFails(t, ['garage', 'create', '--slug', 'x', '--name', 'X', '--json'], { ...env, ENCRYPTION_KEY: 'too-short' }, 1, [/ENCRYPTION_KEY/]),
    cliFails(t, ['migrate', '--json'], { ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' }, 3, [/^error: .*\[UNAVAILABLE\]/, /cause: .*ECONNREFUSED/]),
  ]);
  const debug = await runCliProcess(['migrate', '--json'], { ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere', DEBUG: '1' });
  t.equal(debug.code, 3);
  t.match(debug.stderr, /\n\s+at /, 'DEBUG shows the stack trace');
  t.equal((await query("select id from garages where slug = 'x'")).length, 0);
});
