import { randomBytes } from 'node:crypto';
import t from 'tap';
import { ConfigError, loadCliConfig } from '../src/index.js';

const key = randomBytes(32).toString('base64');

t.test('the CLI reads the database settings of the API, with the same defaults', async (t) => {
  t.same(loadCliConfig({}), {
    databaseUrl: null,
    databaseNamedStatements: true,
    pgliteDir: '.data/pglite',
    encryptionKey: null,
    previousEncryptionKeys: [],
    webhookAllowedNetworks: [],
    publicUrl: 'http://localhost:3000',
  });
  t.same(
    loadCliConfig({
      DATABASE_URL: 'postgres://db/garage',
      ENCRYPTION_KEY: ` ${key} `,
      ENCRYPTION_KEY_PREVIOUS: `${key},`,
      PGLITE_DIR: '',
      WEBHOOK_ALLOWED_NETWORKS: '10.20.0.0/16',
      PUBLIC_URL: 'https://api.example.com',
      DATABASE_NAMED_STATEMENTS: 'off',
    }),
    {
      databaseUrl: 'postgres://db/garage',
      databaseNamedStatements: false,
      pgliteDir: '.data/pglite',
      encryptionKey: key,
      previousEncryptionKeys: [key],
      webhookAllowedNetworks: ['10.20.0.0/16'],
      publicUrl: 'https://api.example.com',
    },
  );
});

t.test('a bad value names its variable and never echoes a secret', async (t) => {
  for (const [env, variable] of [
    [{ DATABASE_URL: 'mysql://user:secret@db' }, 'DATABASE_URL'],
    [{ ENCRYPTION_KEY: 'c2hvcnQ=' }, 'ENCRYPTION_KEY'],
    [{ ENCRYPTION_KEY_PREVIOUS: `${key},short` }, 'ENCRYPTION_KEY_PREVIOUS'],
    [{ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/99' }, 'WEBHOOK_ALLOWED_NETWORKS'],
  ] as const) {
    const err = t.throws(() => loadCliConfig(env)) as ConfigError;
    t.type(err, ConfigError);
    t.equal(err.variable, variable);
    t.notMatch(err.message, /secret|c2hvcnQ|short/, 'no value quoted');
  }
});
