import { Type } from 'typebox';
import { allowedNetworksOf, encryptionKeyOf, previousKeysOf, sharedFields } from './fields.js';
import { portalFields, publicUrlOf } from './portal.js';
import { readEnv, type Environment } from './read-env.js';

/** The admin CLI reads the database settings of the API, so that `pnpm cli` and `pnpm start` see the same data. */
const CliEnv = Type.Object({
  DATABASE_URL: sharedFields.DATABASE_URL,
  DATABASE_NAMED_STATEMENTS: sharedFields.DATABASE_NAMED_STATEMENTS,
  PGLITE_DIR: sharedFields.PGLITE_DIR,
  ENCRYPTION_KEY: sharedFields.ENCRYPTION_KEY,
  ENCRYPTION_KEY_PREVIOUS: sharedFields.ENCRYPTION_KEY_PREVIOUS,
  WEBHOOK_ALLOWED_NETWORKS: sharedFields.WEBHOOK_ALLOWED_NETWORKS,
  PUBLIC_URL: portalFields.PUBLIC_URL,
  PORT: Type.String({ pattern: '^\\d{1,5}$', default: '3000', description: 'an integer from 0 to 65535' }),
});

export interface CliConfig {
  databaseUrl: string | null;
  databaseNamedStatements: boolean;
  pgliteDir: string;
  /** Checked here; the database layer requires it with DATABASE_URL and generates one in embedded mode. */
  encryptionKey: string | null;
  previousEncryptionKeys: string[];
  /** Webhook URLs whose host is an address literal are checked against these when configured. */
  webhookAllowedNetworks: string[];
  /** The base of the portal links the CLI prints (the API's PUBLIC_URL, default http://localhost:PORT). */
  publicUrl: string;
}

/** Parses the CLI's environment once, before any command opens the database. */
export const loadCliConfig = (env: Environment = process.env): CliConfig => {
  const parsed = readEnv(CliEnv, env);
  if (parsed.ENCRYPTION_KEY !== undefined) encryptionKeyOf(parsed.ENCRYPTION_KEY);
  previousKeysOf(parsed.ENCRYPTION_KEY_PREVIOUS);
  return {
    databaseUrl: parsed.DATABASE_URL ?? null,
    databaseNamedStatements: parsed.DATABASE_NAMED_STATEMENTS === 'on',
    pgliteDir: parsed.PGLITE_DIR,
    encryptionKey: parsed.ENCRYPTION_KEY?.trim() ?? null,
    previousEncryptionKeys: (parsed.ENCRYPTION_KEY_PREVIOUS ?? '').split(',').map((part) => part.trim()).filter(Boolean),
    webhookAllowedNetworks: allowedNetworksOf(parsed.WEBHOOK_ALLOWED_NETWORKS),
    publicUrl: publicUrlOf(parsed.PUBLIC_URL, parsed.PORT),
  };
};
