import type { Command } from 'commander';
import type { CliContext, JsonOption } from '../context.js';

/** `secrets reencrypt`: the last step of an ENCRYPTION_KEY rotation, after which the former keys can be dropped. */
export const registerSecrets = (program: Command, ctx: CliContext): void => {
  const secrets = program.command('secrets').description('manage the encrypted webhook secrets');

  secrets
    .command('reencrypt')
    .description(
      're-encrypt every webhook secret under ENCRYPTION_KEY (secrets under a key in ENCRYPTION_KEY_PREVIOUS); the secrets themselves do not change',
    )
    .option('--json', 'print one JSON document: {"reencrypted": N}')
    .action(async (options: JsonOption) => {
      const result = await ctx.reencryptWebhookSecrets();
      ctx.print(options, result, () =>
        result.reencrypted === 0
          ? 'Every webhook secret is already encrypted under ENCRYPTION_KEY.'
          : `Re-encrypted ${result.reencrypted} webhook secret${result.reencrypted === 1 ? '' : 's'} under ENCRYPTION_KEY.`,
      );
    });
};
