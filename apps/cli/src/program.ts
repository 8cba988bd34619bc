import { Command, CommanderError } from 'commander';
import { registerAppointment } from './commands/appointment.js';
import { registerCustomer } from './commands/customer.js';
import { registerGarage } from './commands/garage.js';
import { registerImport } from './commands/import.js';
import { registerIntegration } from './commands/integration.js';
import { registerMigrate } from './commands/migrate.js';
import { registerQuote } from './commands/quote.js';
import { registerSecrets } from './commands/secrets.js';
import { registerSeed } from './commands/seed.js';
import { registerVersions } from './commands/versions.js';
import { registerWebhook } from './commands/webhook.js';
import type { CliEnvironment } from './composition.js';
import type { CliContext } from './context.js';
import { EXIT, reportError, type ExitCode } from './errors.js';

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const buildProgram = (env: CliEnvironment, io: Io): Command => {
  const program = new Command('pnpm cli')
    .description('Admin CLI of the garage integration API. Reads DATABASE_URL, PGLITE_DIR, ENCRYPTION_KEY, ENCRYPTION_KEY_PREVIOUS and PUBLIC_URL like the API.')
    // Settings first: subcommands copy them when they are created.
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(add --help for usage)');
  const ctx: CliContext = {
    // The composition root (database drivers included) loads on first use: --help and usage errors answer at once.
    withAdmin: async (work) => (await import('./composition.js')).withAdmin(env, io.stderr, work),
    migrate: async () => (await import('./composition.js')).migrate(env, io.stderr),
    publicUrl: async () => (await import('./composition.js')).publicUrl(env),
    reencryptWebhookSecrets: async () => (await import('./composition.js')).reencryptWebhookSecrets(env, io.stderr),
    print: (options, value, human) => io.stdout(options.json ? `${JSON.stringify(value)}\n` : `${human()}\n`),
  };
  registerMigrate(program, ctx);
  registerGarage(program, ctx);
  registerIntegration(program, ctx);
  registerImport(program, ctx);
  registerAppointment(program, ctx);
  registerQuote(program, ctx);
  registerSeed(program, ctx);
  registerWebhook(program, ctx);
  registerSecrets(program, ctx);
  registerVersions(program, ctx);
  registerCustomer(program, ctx);
  return program;
};

/** Parses `argv`, runs the command and returns the exit code; every error is reported on stderr. */
export const run = async (argv: string[], env: CliEnvironment & { DEBUG?: string }, io: Io): Promise<ExitCode | number> => {
  try {
    await buildProgram(env, io).parseAsync(argv);
    return EXIT.OK;
  } catch (err) {
    // Commander has already printed the usage error or the help.
    if (err instanceof CommanderError) return err.exitCode;
    return reportError(err, io.stderr, Boolean(env.DEBUG));
  }
};
