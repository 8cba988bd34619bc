import { API_VERSIONS } from '@garage/versions';
import type { Command } from 'commander';
import type { CliContext, JsonOption } from '../context.js';

export const registerSeed = (program: Command, ctx: CliContext): void => {
  const seed = program.command('seed').description('sample data');

  seed
    .command('demo')
    .description('create the demo garage if missing, then a fresh demo integration and two quotes (pending, expired)')
    .option('--json', 'print one JSON document: {"garage", "integrations": [...], "quotes": [...]}')
    .action(async (options: JsonOption) => {
      const demo = await ctx.withAdmin((admin) => admin.seedDemo({ apiVersion: API_VERSIONS.latest }));
      ctx.print(options, demo, () =>
        [
          `Demo garage: ${demo.garage}`,
          ...demo.integrations.map((i) => `Integration ${i.name} (${i.id})\n  API key:        ${i.apiKey}\n  webhook secret: ${i.webhookSecret}`),
          ...demo.quotes.map((q) => `Quote ${q.number} (${q.status}) token: ${q.token}`),
        ].join('\n'),
      );
    });
};
