import type { Command } from 'commander';
import type { QuoteLineInput } from '@garage/domain';
import type { CliContext, JsonOption } from '../context.js';
import { parseQuoteLine, parseTime } from '../options.js';

interface CreateOptions extends JsonOption {
  garage: string;
  customer: string;
  line: QuoteLineInput[];
  expiresAt?: Date;
}

export const registerQuote = (program: Command, ctx: CliContext): void => {
  const quote = program.command('quote').description('issue quotes that customers accept or refuse online');

  quote
    .command('create')
    .description('create a quote; its token (the customer\'s link) is shown once')
    .requiredOption('--garage <slug>', 'garage slug')
    .requiredOption('--customer <name>', 'customer name')
    .requiredOption('--line <line>', 'a line "label|qty|unitPriceCents|vatRate", repeatable', parseQuoteLine)
    .option('--expires-at <time>', 'RFC 3339 expiry (default: 30 days from now; a past time makes an expired quote)', parseTime)
    .option('--json', 'print one JSON document: {"id", "number", "token"}')
    .action(async (options: CreateOptions) => {
      const created = await ctx.withAdmin((admin) =>
        admin.createQuote({
          garageSlug: options.garage,
          customerName: options.customer,
          lines: options.line,
          ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
        }),
      );
      const { quote: q, token } = created;
      ctx.print(options, { id: q.id, number: q.number, token }, () =>
        [`Created quote ${q.number} (${q.id}), expires ${q.expiresAt.toISOString()}`, `  token: ${token}`, 'Store it now: it is shown only once.'].join('\n'),
      );
    });
};
