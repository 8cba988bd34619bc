import type { Command } from 'commander';
import type { CliContext, JsonOption } from '../context.js';

export const registerMigrate = (program: Command, ctx: CliContext): void => {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print one JSON document: {"migrated": [names]}')
    .action(async (options: JsonOption) => {
      const migrated = await ctx.migrate();
      ctx.print(options, { migrated }, () =>
        migrated.length === 0 ? 'Database already up to date.' : `Applied ${migrated.length} migration(s): ${migrated.join(', ')}`,
      );
    });
};
